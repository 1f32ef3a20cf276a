import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type Column, DataTable } from "./data-table";
import { useRowSelection } from "./use-row-selection";
import { useSortParam } from "./use-sort";

type Row = { id: string; name: string; total: number };
const ROWS: Row[] = [
  { id: "a", name: "Alpha", total: 3 },
  { id: "b", name: "Beta", total: 1 },
];
const COLUMNS: Array<Column<Row>> = [
  { id: "name", header: "Name", sortKey: "name", cell: (r) => r.name },
  { id: "total", header: "Total", sortKey: "total", className: "text-right", cell: (r) => r.total },
  { id: "actions", header: "Actions", hideHeader: true, cell: () => <button>Open</button> },
];

function SortableTable() {
  const sort = useSortParam();
  return <DataTable label="Things" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} sort={sort} />;
}

function SelectableTable() {
  const [rows, setRows] = useState(ROWS);
  const selection = useRowSelection(rows.map((r) => r.id));
  return (
    <>
      <p>selected: {selection.selectedIds.join(",") || "none"}</p>
      <button onClick={() => setRows([{ id: "c", name: "Gamma", total: 2 }])}>Next page</button>
      <DataTable framed label="Things" columns={COLUMNS.slice(0, 2)} rows={rows} rowKey={(r) => r.id} rowName={(r) => r.name} selection={selection} />
    </>
  );
}

describe("DataTable", () => {
  it("renders the columns with a screen-reader-only actions header", () => {
    render(<DataTable label="Things" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} rowProps={(r) => ({ "data-testid": `row-${r.id}` })} />);
    const table = screen.getByRole("table", { name: "Things" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Name", "Total", "Actions"]);
    expect(within(screen.getByTestId("row-b")).getByText("Beta")).toBeInTheDocument();
    // Without sort controls the headers are plain text.
    expect(within(table).queryByRole("button", { name: /Name/ })).not.toBeInTheDocument();
  });

  it("sorts through the URL: aria-sort on the header, ascending then descending, back to the first page", async () => {
    const router = createMemoryRouter([{ path: "/t", element: <SortableTable /> }], { initialEntries: ["/t?cursor=C2&status=paid"] });
    render(<RouterProvider router={router} />);
    const [name, total] = screen.getAllByRole("columnheader");
    expect(name).toHaveAttribute("aria-sort", "none");
    await userEvent.click(within(total!).getByRole("button", { name: /Total/ }));
    expect(router.state.location.search).toBe("?status=paid&sort=total");
    expect(screen.getAllByRole("columnheader")[1]).toHaveAttribute("aria-sort", "ascending");
    await userEvent.click(screen.getByRole("button", { name: /Total/ }));
    expect(router.state.location.search).toBe("?status=paid&sort=-total");
    expect(screen.getAllByRole("columnheader")[1]).toHaveAttribute("aria-sort", "descending");
    expect(screen.getAllByRole("columnheader")[0]).toHaveAttribute("aria-sort", "none");
  });

  it("selects rows one by one or all at once, and a new set of rows starts with none", async () => {
    render(<SelectableTable />);
    const all = screen.getByRole("checkbox", { name: "Select all rows" }) as HTMLInputElement;
    await userEvent.click(screen.getByRole("checkbox", { name: "Select Beta" }));
    expect(screen.getByText("selected: b")).toBeInTheDocument();
    expect(all.indeterminate).toBe(true);
    await userEvent.click(all);
    expect(screen.getByText("selected: a,b")).toBeInTheDocument();
    expect(all).toBeChecked();
    await userEvent.click(all);
    expect(screen.getByText("selected: none")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("checkbox", { name: "Select Alpha" }));
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(screen.getByText("selected: none")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Select Gamma" })).not.toBeChecked();
  });
});
