import { render, renderHook, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { ListQuery } from "./list-state";
import { ListTable } from "./list-table";
import { useQueryRowSelection } from "./use-row-selection";
import { serverSort } from "./use-sort";

type Answer = { things: Array<{ id: string; name: string }> };
const answered = (data: Answer, isFetching = false): ListQuery<Answer> => ({ data, isPending: false, isError: false, error: null, isFetching, refetch: vi.fn() });

function renderTable(q: ListQuery<Answer>) {
  return render(
    <ListTable
      query={q}
      rowsOf={(d) => d.things}
      loadingLabel="Loading things"
      emptyText="No things yet"
      footer={(d) => <p>{d.things.length} things</p>}
      label="Things"
      columns={[{ id: "name", header: "Name", cell: (t) => t.name }]}
      rowKey={(t) => t.id}
    />,
  );
}

describe("ListTable", () => {
  it("shows the empty text when the answer has no rows", () => {
    renderTable(answered({ things: [] }));
    expect(screen.getByText("No things yet")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows the answer's rows in the table, busy while the query refetches, then the footer", () => {
    renderTable(answered({ things: [{ id: "a", name: "Alpha" }] }, true));
    const table = screen.getByRole("table", { name: "Things" });
    expect(within(table).getByText("Alpha")).toBeInTheDocument();
    expect(table.closest("[aria-busy]")).toHaveAttribute("aria-busy", "true");
    expect(screen.getByText("1 things")).toBeInTheDocument();
  });
});

describe("serverSort", () => {
  const allowed = ["name", "-name", "joined"] as const;
  it("names the sort as the server does when it is allowed, else null", () => {
    expect(serverSort({ key: "name", direction: "descending" }, allowed)).toBe("-name");
    expect(serverSort({ key: "joined", direction: "ascending" }, allowed)).toBe("joined");
    expect(serverSort({ key: "joined", direction: "descending" }, allowed)).toBeNull();
    expect(serverSort({ key: null, direction: "ascending" }, allowed)).toBeNull();
  });
});

describe("useQueryRowSelection", () => {
  const ids = (d: Answer) => d.things.map((t) => t.id);
  const data: Answer = { things: [{ id: "a", name: "Alpha" }] };
  it("offers the rows of an answer, none of a placeholder or when not enabled", () => {
    expect(renderHook(() => useQueryRowSelection({ data, isPlaceholderData: false }, ids)).result.current.rowCount).toBe(1);
    expect(renderHook(() => useQueryRowSelection({ data, isPlaceholderData: true }, ids)).result.current.rowCount).toBe(0);
    expect(renderHook(() => useQueryRowSelection({ data, isPlaceholderData: false }, ids, false)).result.current.rowCount).toBe(0);
  });
});
