import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { applyParamChanges, isPageParam } from "./url-params";
import { useUrlSearch } from "./use-url-search";

const params = (s: string) => new URLSearchParams(s);

describe("applyParamChanges", () => {
  it("sets and removes parameters, and by default sends every list back to its first page", () => {
    expect(applyParamChanges(params("tab=x&level=info&cursor=A&cursor=B&balances.cursor=C&page=3"), { level: "warning", archived: "" }).toString()).toBe("tab=x&level=warning");
    expect(applyParamChanges(params("cursor=A&payouts.cursor=B"), { status: "paid" }, { resetPages: ["payouts.cursor"] }).toString()).toBe("cursor=A&status=paid");
    expect(applyParamChanges(params("cursor=A"), { tab: "b" }, { resetPages: "none" }).toString()).toBe("cursor=A&tab=b");
  });

  it("knows a list's position parameters", () => {
    expect(["cursor", "page", "balances.cursor", "sales.page"].every(isPageParam)).toBe(true);
    expect(["pages", "cursorish", "tab", "sort"].some(isPageParam)).toBe(false);
  });
});

function Search() {
  const { input, setInput, search } = useUrlSearch("search", 10);
  return (
    <>
      <label>
        Search <input value={input} onChange={(e) => setInput(e.target.value)} />
      </label>
      <p>asking: {search || "everything"}</p>
    </>
  );
}

describe("useUrlSearch", () => {
  it("puts a settled search in the URL from the first page, and follows the URL back", async () => {
    const router = createMemoryRouter([{ path: "/s", element: <Search /> }], { initialEntries: ["/s?page=4"] });
    render(<RouterProvider router={router} />);
    await userEvent.type(screen.getByLabelText("Search"), " moon ");
    expect(await screen.findByText("asking: moon")).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(router.state.location.search).toBe("?search=moon");
    await act(() => router.navigate("/s?search=sun"));
    expect(screen.getByLabelText("Search")).toHaveValue("sun");
    expect(await screen.findByText("asking: sun")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?search=sun");
  });
});
