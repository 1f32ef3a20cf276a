import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPayoutRunEndpoint } from "@contract/financials";
import { callApi } from "@web/lib/api-client";
import { json, mockFetch } from "@web/test/render";
import { StepUpHost } from "./step-up-host";

afterEach(() => {
  vi.unstubAllGlobals();
});

const stepUpRequired = () =>
  json(
    { error: { code: "step_up_required", message: "Confirm it's you: this action needs a second-factor check, a code from your authenticator app or a passkey (in the last 10 minutes)" } },
    403,
    "Forbidden",
  );
const run = { id: "r1", status: "queued" };
/** The payout run's definition with its answer left unchecked (the test answers a short run). */
const startRun = { ...createPayoutRunEndpoint, success: { status: 201, description: "The run" } } as const;

describe("StepUpDialog, loaded by StepUpHost on the first ask", () => {
  it("asks for a code when a dangerous action is refused for want of a check, then sends the action again", async () => {
    let checked = false;
    const fetchMock = mockFetch((url, init) => {
      if (url === "/api/auth/step-up") {
        if (init?.body === JSON.stringify({ code: "111111" })) return json({ error: { code: "unauthorized", message: "wrong" } }, 401, "Unauthorized");
        checked = true;
        return json({ validUntil: "2026-11-27T10:10:00.000Z" });
      }
      return checked ? json({ run }, 201, "Created") : stepUpRequired();
    });
    render(<StepUpHost />);
    const action = callApi(startRun, { body: {} });
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await userEvent.type(within(dialog).getByLabelText("Code from the app"), "111111");
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("That code is not right, or was used already.");
    await userEvent.clear(within(dialog).getByLabelText("Code from the app"));
    await userEvent.type(within(dialog).getByLabelText("Code from the app"), "123 456");
    await userEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await expect(action).resolves.toEqual({ run });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const runCalls = fetchMock.mock.calls.filter(([u]) => u === "/api/admin/financial/payouts/runs");
    expect(runCalls).toHaveLength(2);
    expect(fetchMock.mock.calls.some(([u, i]) => u === "/api/auth/step-up" && i?.body === JSON.stringify({ code: "123456" }))).toBe(true);
  });

  it("takes a recovery code instead, and a cancel leaves the action refused with the server's reason", async () => {
    mockFetch((url) => (url === "/api/auth/step-up" ? json({ validUntil: "x" }) : stepUpRequired()));
    render(<StepUpHost />);
    const refused = callApi(startRun, { body: {} }).catch((error: unknown) => error);
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Use a recovery code" }));
    expect(within(dialog).getByLabelText("Recovery code")).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(String(await refused)).toContain("step_up_required");
  });

  it("never asks for an action that is not dangerous", async () => {
    const fetchMock = mockFetch(() => stepUpRequired());
    render(<StepUpHost />);
    await expect(callApi({ ...startRun, stepUp: undefined }, { body: {} })).rejects.toThrow();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
