import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { VendorDetail } from "@contract/vendors";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { FeatureArtistCard } from "./feature-artist-card";

afterEach(() => {
  vi.unstubAllGlobals();
});

const vendor = (over: Partial<VendorDetail> = {}): VendorDetail => ({
  id: "v1",
  name: "Moonlit Ceramics",
  owner: "Ava Stone",
  email: "ava@moonlit.example",
  slug: "moonlit-ceramics",
  status: "active",
  isInternal: false,
  joinedDate: "2026-05-01T00:00:00.000Z",
  stats: { totalProducts: 3, revenue: 1234.5, totalSales: 7, avgOrderValue: 176.36, conversionRate: 2.5, lastSaleDate: null },
  customization: { theme: "minimal", primaryColor: "#112233", secondaryColor: "#445566", about: "Clay things", customCSS: "", customHTML: null },
  artistStatus: "active",
  statusReason: null,
  statusHistory: [],
  application: null,
  appliedAt: null,
  trusted: false,
  takedowns: 0,
  ...over,
});

const slot = {
  id: "s1",
  vendorId: "v1",
  vendorName: "Moonlit Ceramics",
  durationDays: 14,
  startsAt: "2026-11-22T12:00:00.000Z",
  endsAt: "2026-12-06T12:00:00.000Z",
  setBy: "a@hki.global",
  endedAt: null,
  endReason: null,
};

describe("FeatureArtistCard", () => {
  it("features the artist for the days typed, queued after the current one when ticked", async () => {
    const fetch = mockFetch(() => json({ current: slot, upcoming: [], history: [] }, 201, "Created"));
    renderWithQuery(<FeatureArtistCard vendor={vendor()} />);
    const days = screen.getByLabelText("Duration (days)");
    await userEvent.clear(days);
    await userEvent.type(days, "14");
    await userEvent.click(screen.getByRole("checkbox", { name: "Start after the current featured artist" }));
    await userEvent.click(screen.getByRole("button", { name: "Feature this artist" }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(String(fetch.mock.calls[0]?.[0])).toBe("/api/admin/featured-artist");
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({ vendorId: "v1", duration: 14, startAfterCurrent: true });
  });

  it("refuses a duration outside 1–90 days before asking the server", async () => {
    const fetch = mockFetch(() => json({}));
    renderWithQuery(<FeatureArtistCard vendor={vendor()} />);
    const days = screen.getByLabelText("Duration (days)");
    await userEvent.clear(days);
    await userEvent.type(days, "91");
    expect(screen.getByText("Between 1 and 90 days")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Feature this artist" })).toBeDisabled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    [{ isInternal: true }, "Internal stores cannot be featured"],
    [{ status: "suspended" as const }, "Reactivate the artist before featuring it"],
  ])("is disabled with the reason for %o", (over, reason) => {
    mockFetch(() => json({}));
    renderWithQuery(<FeatureArtistCard vendor={vendor(over)} />);
    expect(screen.getByRole("button", { name: "Feature this artist" })).toBeDisabled();
    expect(screen.getByRole("note", { name: reason })).toBeInTheDocument();
  });
});
