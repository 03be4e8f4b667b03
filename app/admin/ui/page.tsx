import {
  Badge,
  BlockStack,
  Card,
  Checkbox,
  InlineStack,
  Page,
  ProgressBar,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import type { ComponentProps, ReactNode } from "react";
import { useState } from "react";
import { useI18n } from "../i18n/context";
import type { UiMessage } from "../../shared/messages";

// The few building blocks the pages are made of, over Polaris React: a later move to Polaris web
// components (<s-page>, <s-section>, <s-text-field>…) rewrites this folder, not every page.

type Action = { content: string; onAction?: () => void; url?: string; loading?: boolean; disabled?: boolean };

export function AdminPage({
  title,
  primaryAction,
  secondaryActions,
  children,
}: {
  title: string;
  primaryAction?: Action;
  secondaryActions?: Action[];
  children: ReactNode;
}) {
  return (
    <Page title={title} primaryAction={primaryAction} secondaryActions={secondaryActions}>
      <BlockStack gap="400">{children}</BlockStack>
    </Page>
  );
}

export function Section({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        {title || actions ? (
          <InlineStack align="space-between" blockAlign="center" gap="200">
            {title ? (
              <Text as="h2" variant="headingMd">
                {title}
              </Text>
            ) : (
              <span />
            )}
            {actions}
          </InlineStack>
        ) : null}
        {children}
      </BlockStack>
    </Card>
  );
}

/** A text field that posts with its form (`name`), shows a server message as its error. */
export function TextInput(props: {
  name: string;
  label: string;
  defaultValue?: string;
  helpText?: ReactNode;
  error?: UiMessage | string;
  type?: "text" | "password" | "url" | "date" | "number";
  autoComplete?: string;
  placeholder?: string;
  multiline?: number;
  onChange?: (value: string) => void;
  value?: string;
}) {
  const { t } = useI18n();
  const [own, setOwn] = useState(props.defaultValue ?? "");
  const value = props.value ?? own;
  const error =
    typeof props.error === "string" ? props.error : props.error ? t(props.error.key, props.error.params) : undefined;
  return (
    <TextField
      name={props.name}
      label={props.label}
      value={value}
      onChange={(v) => {
        setOwn(v);
        props.onChange?.(v);
      }}
      helpText={props.helpText}
      error={error}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete ?? "off"}
      placeholder={props.placeholder}
      multiline={props.multiline}
    />
  );
}

export function SelectInput(props: {
  name: string;
  label: string;
  options: { label: string; value: string }[];
  value: string;
  onChange: (v: string) => void;
  helpText?: ReactNode;
  error?: string;
}) {
  return (
    <Select
      name={props.name}
      label={props.label}
      options={props.options}
      value={props.value}
      onChange={props.onChange}
      helpText={props.helpText}
      error={props.error}
    />
  );
}

export function CheckboxInput(props: {
  name: string;
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  helpText?: ReactNode;
  error?: string;
}) {
  return (
    <Checkbox
      name={props.name}
      label={props.label}
      checked={props.checked}
      onChange={props.onChange}
      helpText={props.helpText}
      error={props.error}
      value="true"
    />
  );
}

export function StatusBadge({ tone, children }: { tone?: ComponentProps<typeof Badge>["tone"]; children: string }) {
  return <Badge tone={tone}>{children}</Badge>;
}

/** A labelled progress bar; the label says the numbers so the bar is not the only carrier. */
export function ProgressMeter({ label, progress }: { label: string; progress: number | null }) {
  return (
    <BlockStack gap="100">
      <Text as="p" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress === null ? undefined : Math.round(progress)}
      >
        <ProgressBar progress={progress ?? 0} size="small" animated={progress === null} />
      </div>
    </BlockStack>
  );
}
