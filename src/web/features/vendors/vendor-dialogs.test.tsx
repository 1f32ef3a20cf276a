import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SETTING_KEY_LIST } from "@contract/settings";
import { json, mockFetch, renderWithQuery } from "@web/test/render";
import { VendorDeleteDialog, VendorStatusDialog } from "./vendor-dialogs";

const vendor = { name: "Moonlit Ceramics" };

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Every setting as the server answers (the answer is checked against its schema), with the artist reason templates. */
const settings = Object.fromEntries(
  SETTING_KEY_LIST.map((key) => [key, { value: key === "artist_reason_templates" ? "Orders not shipped" : "", description: "", updatedAt: "2026-11-01T00:00:00.000Z", updatedBy: null }]),
);

describe("VendorStatusDialog", () => {
  it("states the three consequences of disabling and asks for the reason the artist is told", async () => {
    mockFetch(() => json(settings));
    const onConfirm = vi.fn();
    renderWithQuery(<VendorStatusDialog vendor={vendor} nextActive={false} onCancel={vi.fn()} onConfirm={onConfirm} />);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("hidden from public listings");
    expect(dialog).toHaveTextContent("not be able to access their vendor dashboard");
    expect(dialog).toHaveTextContent("data will be kept, so the vendor can be reactivated");
    expect(screen.getByRole("button", { name: "Disable Vendor" })).toBeDisabled();
    await userEvent.type(screen.getByLabelText("Reason (the artist is told it)"), "Counterfeit prints");
    await userEvent.click(screen.getByRole("button", { name: "Disable Vendor" }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith("Counterfeit prints");
  });

  it("offers the reason templates from Settings", async () => {
    mockFetch(() => json(settings));
    const onConfirm = vi.fn();
    renderWithQuery(<VendorStatusDialog vendor={vendor} nextActive={false} onCancel={vi.fn()} onConfirm={onConfirm} />);
    await userEvent.click(await screen.findByRole("button", { name: "Orders not shipped" }));
    expect(screen.getByLabelText("Reason (the artist is told it)")).toHaveValue("Orders not shipped");
    await userEvent.click(screen.getByRole("button", { name: "Disable Vendor" }));
    expect(onConfirm).toHaveBeenCalledExactlyOnceWith("Orders not shipped");
  });

  it("offers enabling for an inactive vendor and cancels without confirming", async () => {
    mockFetch(() => json(settings));
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    renderWithQuery(<VendorStatusDialog vendor={vendor} nextActive onCancel={onCancel} onConfirm={onConfirm} />);
    expect(await screen.findByRole("button", { name: "Enable Vendor" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("is closed without a vendor", () => {
    mockFetch(() => json(settings));
    renderWithQuery(<VendorStatusDialog vendor={null} nextActive onCancel={vi.fn()} onConfirm={vi.fn()} />);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });
});

describe("VendorDeleteDialog", () => {
  it("under Clerk, the only confirm button reads exactly 'Delete Vendor & Clerk Account'", async () => {
    const onConfirm = vi.fn();
    render(<VendorDeleteDialog vendor={vendor} providerName="Clerk" onCancel={vi.fn()} onConfirm={onConfirm} />);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("cannot be undone");
    expect(dialog).toHaveTextContent("permanently remove the vendor account");
    expect(dialog).toHaveTextContent("their store, their products and all their data");
    expect(dialog).toHaveTextContent("deletes their user account at the authentication provider");
    expect(dialog).toHaveTextContent("consider disabling the vendor instead");
    const buttons = screen.getAllByRole("button").map((b) => b.textContent);
    expect(buttons).toEqual(["Cancel", "Delete Vendor & Clerk Account"]);
    await userEvent.click(screen.getByRole("button", { name: "Delete Vendor & Clerk Account" }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("names the built-in provider as the server reports it", async () => {
    render(<VendorDeleteDialog vendor={vendor} providerName="HKI Global" onCancel={vi.fn()} onConfirm={vi.fn()} />);
    expect(await screen.findByRole("button", { name: "Delete Vendor & HKI Global Account" })).toBeInTheDocument();
  });
});
