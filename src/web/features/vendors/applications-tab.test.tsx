import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SETTING_KEY_LIST } from "@contract/settings";
import type { ApplicationsResponse } from "@contract/vendors";
import { Toaster } from "@web/components/ui/toast";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { ApplicationsTab, waitedFor } from "./applications-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const settings = Object.fromEntries(
  SETTING_KEY_LIST.map((key) => [key, { value: key === "artist_reason_templates" ? "Not original work" : "", description: "", updatedAt: "2026-11-01T00:00:00.000Z", updatedBy: null }]),
);

const queue: ApplicationsResponse = {
  applications: [
    {
      id: "v1",
      name: "Heron Prints",
      owner: "Ada Heron",
      email: "ada@example.com",
      slug: "heron-prints",
      artistId: "art_1",
      status: "pending",
      appliedAt: new Date(Date.now() - 3 * 86_400_000 - 60_000).toISOString(),
      application: { portfolioUrl: "https://portfolio.example.com/ada", statement: "I print herons.", sampleImageUrls: ["http://localhost:5174/a.jpg", "http://localhost:5174/b.jpg"], referral: null },
    },
  ],
  total: 1,
  nextCursor: null,
};

function renderTab() {
  const router = createMemoryRouter([{ path: "/vendors", element: <ApplicationsTab /> }], { initialEntries: ["/vendors?tab=applications"] });
  return renderWithQuery(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
}

describe("ApplicationsTab", () => {
  it("lists the waiting applications with their age; the review shows the application in full; a reject needs a reason, picked from a template", async () => {
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/admin/settings") return json(settings);
      if (init?.method === "POST")
        return json({
          id: "v1",
          name: "Heron Prints",
          owner: "Ada Heron",
          email: "ada@example.com",
          slug: "heron-prints",
          joinedDate: "2026-11-19T00:00:00.000Z",
          isActive: false,
          isInternal: false,
          artistStatus: "rejected",
        });
      return json(queue);
    });
    renderTab();
    const row = await screen.findByTestId("application-row-heron-prints");
    expect(row).toHaveTextContent("3 days");
    expect(screen.getByText("1 application waiting · page 1")).toBeInTheDocument();

    await userEvent.click(within(row).getByRole("button", { name: "Review Heron Prints" }));
    const dialog = await screen.findByRole("dialog", { name: "Application of Heron Prints" });
    expect(dialog).toHaveTextContent("I print herons.");
    expect(within(dialog).getByRole("link", { name: "https://portfolio.example.com/ada" })).toHaveAttribute("rel", "noopener noreferrer");
    expect(
      within(dialog)
        .getAllByRole("img")
        .map((img) => img.getAttribute("src")),
    ).toEqual(["http://localhost:5174/a.jpg", "http://localhost:5174/b.jpg"]);

    await userEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(await within(dialog).findByText("A reason is required to reject (the artist is told it)")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some((c) => c[1]?.method === "POST")).toBe(false);

    await userEvent.click(within(dialog).getByRole("button", { name: "Not original work" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    await waitFor(() => expect(fetchMock.mock.calls.find((c) => c[1]?.method === "POST")?.[0]).toBe("/api/admin/vendors/v1/application"));
    expect(JSON.parse(String(fetchMock.mock.calls.find((c) => c[1]?.method === "POST")![1]!.body))).toEqual({ decision: "reject", reason: "Not original work" });
    expect(await screen.findByText("Heron Prints: rejected")).toBeInTheDocument();
  });

  it("approves the selected applications in one call", async () => {
    let posted: unknown = null;
    mockFetch((url, init) => {
      if (url === "/api/admin/settings") return json(settings);
      if (url === "/api/admin/vendors/applications/bulk-approve") {
        posted = JSON.parse(String(init!.body));
        return json({ approved: 1 });
      }
      return json(queue);
    });
    renderTab();
    await userEvent.click(await screen.findByRole("checkbox", { name: "Select Heron Prints" }));
    await userEvent.click(screen.getByRole("button", { name: "Approve selected" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Approve 1 application" }));
    expect(await screen.findByText("1 application approved")).toBeInTheDocument();
    expect(posted).toEqual({ ids: ["v1"] });
  });

  it("says how long an application has waited", () => {
    const now = Date.parse("2026-11-22T12:00:00.000Z");
    expect(waitedFor("2026-11-22T01:00:00.000Z", now)).toBe("today");
    expect(waitedFor("2026-11-21T11:00:00.000Z", now)).toBe("1 day");
    expect(waitedFor("2026-11-10T12:00:00.000Z", now)).toBe("12 days");
  });
});
