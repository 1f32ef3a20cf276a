import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { Pager } from "./pager";
import { useKeysetPages, useNumberedPages } from "./use-pages";

/** A keyset list whose answers say which page follows (C2 after the first, C3 after C2, none after C3). */
function KeysetList({ placeholder = false }: { placeholder?: boolean }) {
  const pages = useKeysetPages();
  const following: Record<string, string | null> = { first: "C2", C2: "C3", C3: null };
  const nextCursor = following[pages.cursor ?? "first"] ?? null;
  return (
    <>
      <p>cursor: {pages.cursor ?? "none"}</p>
      <Pager label="Test pages" {...pages.controls({ data: { nextCursor }, isPlaceholderData: placeholder })} />
      <button onClick={pages.reset}>Reset</button>
    </>
  );
}

function NumberedList({ pageCount }: { pageCount: number }) {
  const pages = useNumberedPages("items");
  return <Pager label="Item pages" summary={`Page ${pages.page} of ${pageCount}`} {...pages.controls(pageCount)} />;
}

const renderAt = (url: string, element: React.ReactElement) => {
  const router = createMemoryRouter([{ path: "/list", element }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
};

describe("useKeysetPages", () => {
  it("keeps the cursor stack in the URL: Next pushes, Previous pops, back returns", async () => {
    const router = renderAt("/list?level=info", <KeysetList />);
    expect(screen.getByText("Page 1")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(router.state.location.search).toBe("?level=info&cursor=C2&cursor=C3");
    expect(screen.getByText("Page 3")).toBeInTheDocument();
    expect(screen.getByText("cursor: C3")).toBeInTheDocument();
    // The last page: Next is unavailable.
    expect(screen.getByRole("button", { name: "Next" })).toHaveAttribute("aria-disabled", "true");

    await act(() => router.navigate(-1));
    expect(screen.getByText("Page 2")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(router.state.location.search).toBe("?level=info");
    expect(screen.getByRole("button", { name: "Previous" })).toHaveAttribute("aria-disabled", "true");
  });

  it("opens (or reloads) at the page the URL names, and reset goes back to the first without a history entry", async () => {
    const router = renderAt("/list?cursor=C2", <KeysetList />);
    expect(screen.getByText("Page 2")).toBeInTheDocument();
    expect(screen.getByText("cursor: C2")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Reset" }));
    expect(router.state.location.search).toBe("");
    expect(router.state.historyAction).toBe("REPLACE");
  });

  it("offers no Next while the answer on screen is the previous page's placeholder", () => {
    renderAt("/list", <KeysetList placeholder />);
    expect(screen.getByRole("button", { name: "Next" })).toHaveAttribute("aria-disabled", "true");
  });
});

describe("useNumberedPages", () => {
  it("keeps a named list's page number in the URL and stops at the last page", async () => {
    const router = renderAt("/list?items.page=2", <NumberedList pageCount={3} />);
    expect(screen.getByText("Page 2 of 3")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(router.state.location.search).toBe("?items.page=3");
    expect(screen.getByRole("button", { name: "Next" })).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    await userEvent.click(screen.getByRole("button", { name: "Previous" }));
    expect(router.state.location.search).toBe("");
  });

  it("reads a nonsense page as the first", () => {
    renderAt("/list?items.page=abc", <NumberedList pageCount={1} />);
    expect(screen.getByText("Page 1 of 1")).toBeInTheDocument();
  });
});
