// A shop's settings: the schema with its defaults, and the paths the admin and the CLI edit.
// Other folders import from here only; the rest of the folder is private to it.
export { defaultSettings, parseSettings, shopSettingsSchema } from "./settings";
export type { ShopSettings } from "./settings";
export {
  SettingsInputError,
  applyAssignments,
  convertValue,
  describeSetting,
  flatten,
  getPath,
  parseAssignments,
  same,
  settingSpecs,
  show,
} from "./settings-paths";
export type { Assignment, SettingSpec } from "./settings-paths";
