import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { VendorDeleteDialog, VendorStatusDialog } from "./vendor-dialogs";

const vendor = { name: "Moonlit Ceramics" };

describe("VendorStatusDialog", () => {
  it("states the three consequences of disabling", async () => {
    const onConfirm = vi.fn();
    render(<VendorStatusDialog vendor={vendor} nextActive={false} onCancel={vi.fn()} onConfirm={onConfirm} />);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("hidden from public listings");
    expect(dialog).toHaveTextContent("not be able to access their vendor dashboard");
    expect(dialog).toHaveTextContent("data will be kept, so the vendor can be reactivated");
    await userEvent.click(screen.getByRole("button", { name: "Disable Vendor" }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });

  it("offers enabling for an inactive vendor and cancels without confirming", async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<VendorStatusDialog vendor={vendor} nextActive onCancel={onCancel} onConfirm={onConfirm} />);
    expect(await screen.findByRole("button", { name: "Enable Vendor" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalled();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("is closed without a vendor", () => {
    render(<VendorStatusDialog vendor={null} nextActive onCancel={vi.fn()} onConfirm={vi.fn()} />);
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
