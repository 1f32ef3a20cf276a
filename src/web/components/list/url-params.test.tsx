import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { lazy, Suspense } from "react";
import { createMemoryRouter, Link, Route, RouterProvider, Routes, UNSAFE_createMemoryHistory as createMemoryHistory } from "react-router";
import { AppRouter, createAppNavigation } from "@web/app/navigation";
import { describe, expect, it } from "vitest";
import { applyParamChanges, isPageParam, useUrlParams } from "./url-params";
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

function Search({ delayMs = 10 }: { delayMs?: number }) {
  const { input, setInput, search } = useUrlSearch("search", delayMs);
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

describe("useUrlSearch while the user leaves", () => {
  it("does not take the user back when a search settles as the next screen's code still loads", async () => {
    const navigation = createAppNavigation(createMemoryHistory({ initialEntries: ["/s"], v5Compat: true }));
    // The next screen's code never arrives, so the search screen stays on show (the transition).
    const NeverLoads = lazy(() => new Promise<never>(() => {}));
    render(
      <AppRouter navigation={navigation}>
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route
              path="/s"
              element={
                <>
                  <Search delayMs={150} />
                  <Link to="/detail">Moon Studio</Link>
                </>
              }
            />
            <Route path="/detail" element={<NeverLoads />} />
          </Routes>
        </Suspense>
      </AppRouter>,
    );
    await userEvent.type(screen.getByLabelText("Search"), "moon");
    await userEvent.click(screen.getByRole("link", { name: "Moon Studio" }));
    expect(navigation.history.location.pathname).toBe("/detail");
    await act(() => new Promise((r) => setTimeout(r, 250)));
    expect(screen.getByText(/asking: moon/)).toBeInTheDocument();
    expect(navigation.history.location.pathname).toBe("/detail");
    expect(navigation.history.location.search).toBe("");
  });
});

describe("useUrlParams while a navigation still renders", () => {
  function SearchWithDrawer() {
    const [params, update] = useUrlParams();
    return (
      <>
        <Search delayMs={150} />
        <button type="button" onClick={() => update({ order: "o-1" }, { resetPages: "none", push: true })}>
          Open
        </button>
        {params.get("order") ? <DrawerNeverLoads /> : null}
      </>
    );
  }
  // The drawer's code never arrives, so the navigation that opened it stays in its transition.
  const DrawerNeverLoads = lazy(() => new Promise<never>(() => {}));

  it("keeps a row opened a moment before the typed search settles", async () => {
    const navigation = createAppNavigation(createMemoryHistory({ initialEntries: ["/orders"], v5Compat: true }));
    render(
      <AppRouter navigation={navigation}>
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route path="/orders" element={<SearchWithDrawer />} />
          </Routes>
        </Suspense>
      </AppRouter>,
    );
    await userEvent.type(screen.getByLabelText("Search"), "moon");
    await userEvent.click(screen.getByRole("button", { name: "Open" }));
    await act(() => new Promise((r) => setTimeout(r, 250)));
    expect(screen.getByText(/asking: moon/)).toBeInTheDocument();
    const query = new URLSearchParams(navigation.history.location.search);
    expect(query.get("order")).toBe("o-1");
    expect(query.get("search")).toBe("moon");
  });
});
