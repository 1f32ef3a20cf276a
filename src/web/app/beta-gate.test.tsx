import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BETA_ACCESS_VALIDITY_MS, BETA_MARKER_KEY } from "@web/lib/beta-marker";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { BetaGate } from "./beta-gate";

afterEach(() => {
  vi.unstubAllGlobals();
});

const renderGate = () => renderWithQuery(<BetaGate>{<p>The app</p>}</BetaGate>);

describe("BetaGate", () => {
  it("shows the product's texts when no marker exists", async () => {
    renderGate();
    expect(await screen.findByRole("heading", { name: "Private Beta Access" })).toBeInTheDocument();
    expect(screen.getByLabelText("Beta Access Password")).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Access Beta" })).toBeInTheDocument();
    expect(screen.getByText("This is a private beta. Contact support if you need access.")).toBeInTheDocument();
    expect(screen.queryByText("The app")).not.toBeInTheDocument();
  });

  it("says 'Invalid password' and clears the field on a wrong password", async () => {
    const fetchMock = mockFetch(() => json({ error: { code: "invalid_password", message: "Invalid password" } }, 401, "Unauthorized"));
    renderGate();
    const input = await screen.findByLabelText("Beta Access Password");
    await userEvent.type(input, "wrong");
    await userEvent.click(screen.getByRole("button", { name: "Access Beta" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(input).toHaveValue("");
    expect(localStorage.getItem(BETA_MARKER_KEY)).toBeNull();
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/beta/verify");
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(JSON.stringify({ password: "wrong" }));
  });

  it("explains a rate limit", async () => {
    mockFetch(() => json({ error: { code: "rate_limited", message: "Too many" } }, 429, "Too Many Requests"));
    renderGate();
    await userEvent.type(await screen.findByLabelText("Beta Access Password"), "x");
    await userEvent.click(screen.getByRole("button", { name: "Access Beta" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/too many attempts/i);
  });

  it("stores a timestamp and shows the app on the right password", async () => {
    mockFetch(() => json({ ok: true }));
    const before = Date.now();
    renderGate();
    await userEvent.type(await screen.findByLabelText("Beta Access Password"), "right");
    await userEvent.click(screen.getByRole("button", { name: "Access Beta" }));
    expect(await screen.findByText("The app")).toBeInTheDocument();
    const marker = JSON.parse(localStorage.getItem(BETA_MARKER_KEY) ?? "{}") as { timestamp: number };
    expect(marker.timestamp).toBeGreaterThanOrEqual(before);
    expect(marker.timestamp).toBeLessThanOrEqual(Date.now());
  });

  it("opens straight away with a fresh marker", async () => {
    localStorage.setItem(BETA_MARKER_KEY, JSON.stringify({ timestamp: Date.now() - 60_000 }));
    renderGate();
    expect(await screen.findByText("The app")).toBeInTheDocument();
  });

  it("removes an expired marker and stays locked", async () => {
    localStorage.setItem(BETA_MARKER_KEY, JSON.stringify({ timestamp: Date.now() - BETA_ACCESS_VALIDITY_MS - 1 }));
    renderGate();
    expect(await screen.findByRole("heading", { name: "Private Beta Access" })).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(BETA_MARKER_KEY)).toBeNull());
  });
});
