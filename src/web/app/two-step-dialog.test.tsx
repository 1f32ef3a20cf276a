import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import TwoStepDialog from "./two-step-dialog";

afterEach(() => {
  vi.unstubAllGlobals();
});

const recoveryCodes = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-dd${String.fromCharCode(97 + i)}${i % 8}`);

/** The two-step endpoints as the dialog meets them; each request's method, path and body are kept. */
function api(status: { enrolled: boolean; recoveryCodesLeft: number }) {
  const sent: Array<{ key: string; body: unknown }> = [];
  mockFetch((url, init) => {
    const key = `${init?.method ?? "GET"} ${url}`;
    sent.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (key === "GET /api/auth/two-step") return json(status);
    if (key === "POST /api/auth/two-step/setup")
      return json({
        secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        otpauthUri: "otpauth://totp/HKI%20Global:ops%40example.com?secret=JBSWY3DPEHPK3PXP",
        qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
      });
    if (key === "POST /api/auth/two-step/confirm") return json({ recoveryCodes });
    if (key === "DELETE /api/auth/two-step") return new Response(null, { status: 204 });
    return json({ error: { code: "not_found", message: key } }, 404, "Not Found");
  });
  return sent;
}

describe("TwoStepDialog", () => {
  it("sets up an app: QR code and the key to type, turned on with a code, recovery codes shown once with copy and download", async () => {
    const sent = api({ enrolled: false, recoveryCodesLeft: 0 });
    const onClose = vi.fn();
    renderWithQuery(<TwoStepDialog open onClose={onClose} />);
    await userEvent.click(await screen.findByRole("button", { name: "Set up" }));
    expect(await screen.findByRole("img", { name: "QR code for your authenticator app" })).toHaveAttribute("src", expect.stringMatching(/^data:image\/svg\+xml/));
    expect(screen.getByTestId("two-step-secret")).toHaveTextContent("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    await userEvent.type(screen.getByLabelText("Code from the app"), "123456");
    await userEvent.click(screen.getByRole("button", { name: "Turn on" }));
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(recoveryCodes);
    expect(sent.find((request) => request.key === "POST /api/auth/two-step/confirm")?.body).toEqual({ code: "123456" });
    expect(screen.getByRole("link", { name: "Download" })).toHaveAttribute("download", "hki-global-recovery-codes.txt");
    expect(screen.getByRole("button", { name: "Copy" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(onClose).toHaveBeenCalled();
  });

  it("turns two-step sign-in off with a code, saying how many recovery codes are left", async () => {
    const sent = api({ enrolled: true, recoveryCodesLeft: 7 });
    const onClose = vi.fn();
    renderWithQuery(<TwoStepDialog open onClose={onClose} />);
    expect(await screen.findByText(/7 of 10 recovery codes left/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Code from the app"), "654 321");
    await userEvent.click(screen.getByRole("button", { name: "Turn off" }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.find((request) => request.key === "DELETE /api/auth/two-step")?.body).toEqual({ code: "654321" });
  });
});
