import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Pager } from "./pager";

describe("Pager", () => {
  it("is a named navigation with the summary, and turns pages from the keyboard", async () => {
    const onNext = vi.fn();
    const onPrevious = vi.fn();
    render(<Pager label="Vendor pages" summary="12 vendors · page 2 of 3" page={2} hasPrevious hasNext onNext={onNext} onPrevious={onPrevious} />);
    expect(screen.getByRole("navigation", { name: "Vendor pages" })).toHaveTextContent("12 vendors · page 2 of 3");
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Previous" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    await userEvent.tab();
    await userEvent.keyboard(" ");
    expect(onPrevious).toHaveBeenCalledOnce();
    expect(onNext).toHaveBeenCalledOnce();
  });

  it("keeps an unavailable button focusable but inert, and says 'Page n' by default", async () => {
    const onNext = vi.fn();
    render(<Pager label="Pages" page={4} hasPrevious hasNext={false} onNext={onNext} onPrevious={vi.fn()} />);
    expect(screen.getByText("Page 4")).toBeInTheDocument();
    const next = screen.getByRole("button", { name: "Next" });
    expect(next).toHaveAttribute("aria-disabled", "true");
    next.focus();
    expect(next).toHaveFocus();
    await userEvent.click(next);
    expect(onNext).not.toHaveBeenCalled();
  });
});
