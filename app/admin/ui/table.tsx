import { IndexTable, useBreakpoints } from "@shopify/polaris";
import { useEffect, useRef, type ComponentProps, type MouseEvent, type ReactNode } from "react";
import { Empty } from "./feedback";

// An index table with an empty state, the one table of every list page.

type IndexTableProps = ComponentProps<typeof IndexTable>;

// A selectable row takes every click inside it (and cancels it) to toggle its selection, or to open
// it: a link or a button in a cell keeps its click, and leaves the row alone.
const keepLinkClicks = (event: MouseEvent) => {
  if (event.target instanceof Element && event.target.closest("a[href], button, video")) event.stopPropagation();
};

export interface ResourceTableProps<T> {
  /** What the rows are, for screen readers ("reviews"). */
  resourceName: { singular: string; plural: string };
  headings: string[];
  rows: T[];
  rowId: (row: T) => string;
  cells: (row: T) => ReactNode[];
  empty: { heading: string; body: string };
  selection?: {
    selected: string[];
    allSelected: boolean;
    onSelectionChange: IndexTableProps["onSelectionChange"];
    promotedBulkActions: IndexTableProps["promotedBulkActions"];
  };
  pagination?: IndexTableProps["pagination"];
  loading?: boolean;
  /** A click on the row (outside its links, buttons and checkbox) opens it rather than selecting it. */
  onRowClick?: (row: T) => void;
}

export function ResourceTable<T>(props: ResourceTableProps<T>) {
  const { smDown } = useBreakpoints();
  // A table wider than the screen scrolls sideways: keyboard users must reach that scrolling too.
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const el of wrapper.current?.querySelectorAll<HTMLElement>(".Polaris-IndexTable-ScrollContainer") ?? []) {
      el.tabIndex = 0;
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", props.resourceName.plural);
    }
  });
  const headings = props.headings.map((title) => ({ title })) as IndexTableProps["headings"];
  return (
    <div ref={wrapper}>
      <IndexTable
        resourceName={props.resourceName}
        itemCount={props.rows.length}
        headings={headings}
        condensed={smDown}
        selectable={Boolean(props.selection)}
        selectedItemsCount={
          props.selection ? (props.selection.allSelected ? "All" : props.selection.selected.length) : 0
        }
        onSelectionChange={props.selection?.onSelectionChange}
        promotedBulkActions={props.selection?.promotedBulkActions}
        emptyState={<Empty heading={props.empty.heading} body={props.empty.body} />}
        // An empty list shows its empty state alone: a "Page 1 of 1" bar over it says nothing. A page
        // past the end (rows deleted meanwhile) keeps its way back.
        pagination={props.rows.length || props.pagination?.hasPrevious ? props.pagination : undefined}
        loading={props.loading}
      >
        {props.rows.map((row, index) => {
          const id = props.rowId(row);
          const cells = props.cells(row);
          return (
            <IndexTable.Row
              id={id}
              key={id}
              position={index}
              selected={props.selection?.selected.includes(id)}
              onClick={props.onRowClick ? () => props.onRowClick!(row) : undefined}
            >
              {smDown ? (
                // One column on a phone: each value after its heading, the first (the row's name)
                // alone. A condensed row is a list item, not a table row: no cell (<td>) in it.
                <div
                  style={{ display: "grid", gap: 4, padding: "12px 16px", whiteSpace: "normal" }}
                  onClick={keepLinkClicks}
                >
                  {cells.map((c, i) => (
                    <div key={i}>
                      {i > 0 && props.headings[i] ? (
                        <span style={{ color: "var(--p-color-text-secondary)" }}>{props.headings[i]}: </span>
                      ) : null}
                      {c}
                    </div>
                  ))}
                </div>
              ) : (
                cells.map((c, i) => (
                  <IndexTable.Cell key={i}>
                    {/* Long texts wrap instead of widening the table past the page. */}
                    <div style={{ whiteSpace: "normal", maxWidth: 420 }} onClick={keepLinkClicks}>
                      {c}
                    </div>
                  </IndexTable.Cell>
                ))
              )}
            </IndexTable.Row>
          );
        })}
      </IndexTable>
    </div>
  );
}
