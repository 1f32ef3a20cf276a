import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { dismissToast, toast } from "./toast-store";
import { ToasterHost } from "./toaster-host";

afterEach(() => {
  act(() => dismissToast());
});

describe("toast", () => {
  it("shows a toast raised from outside React and closes it from its button", async () => {
    render(<ToasterHost />);
    act(() => {
      toast({ title: "Failed to archive error", variant: "destructive" });
    });
    expect(await screen.findByText("Failed to archive error")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByText("Failed to archive error")).not.toBeInTheDocument();
  });
});
