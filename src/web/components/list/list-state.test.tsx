import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { type ListQuery, ListState } from "./list-state";

type Rows = { rows: string[] };
const query = (over: Partial<ListQuery<Rows>>): ListQuery<Rows> => ({
  data: undefined,
  isPending: false,
  isError: false,
  error: null,
  isFetching: false,
  refetch: vi.fn(),
  ...over,
});

function renderState(q: ListQuery<Rows>, inline = false) {
  return render(
    <ListState query={q} inline={inline} isEmpty={(d) => d.rows.length === 0} loadingLabel="Loading rows" errorTitle="Error loading rows" emptyText="No rows yet">
      {(d) => (
        <ul>
          {d.rows.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
    </ListState>,
  );
}

describe("ListState", () => {
  it("announces loading", () => {
    renderState(query({ isPending: true }));
    expect(screen.getByRole("status")).toHaveTextContent("Loading rows");
  });

  it("shows the failure with its title and message, and 'Try Again' refetches", async () => {
    const q = query({ isError: true, error: new Error("boom") });
    renderState(q);
    expect(screen.getByRole("alert")).toHaveTextContent("Error loading rows");
    expect(screen.getByText("boom")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Try Again" }));
    expect(q.refetch).toHaveBeenCalledOnce();
  });

  it("inside a card says '{title}: {message}' with 'Try Again'", () => {
    renderState(query({ isError: true, error: new Error("boom") }), true);
    expect(screen.getByRole("alert")).toHaveTextContent("Error loading rows: boom");
    expect(screen.getByRole("button", { name: "Try Again" })).toBeEnabled();
  });

  it("shows the empty text, or the list and its footer", () => {
    const { rerender } = renderState(query({ data: { rows: [] } }));
    expect(screen.getByText("No rows yet")).toBeInTheDocument();
    rerender(
      <ListState query={query({ data: { rows: ["a", "b"] } })} isEmpty={(d) => d.rows.length === 0} loadingLabel="Loading rows" emptyText="No rows yet" footer={(d) => <p>{d.rows.length} rows</p>}>
        {(d) => (
          <ul>
            {d.rows.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
      </ListState>,
    );
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    expect(screen.getByText("2 rows")).toBeInTheDocument();
  });
});
