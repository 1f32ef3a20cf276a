import "@testing-library/jest-dom/vitest";
import { afterEach, beforeEach } from "vitest";
import { cleanup } from "@testing-library/react";
import { checkAnswersAgainstContract } from "@web/lib/api-client";

// Every answer a test's mocked fetch gives a callApi call is parsed with its endpoint's success
// schema, so a screen tested on a shape the server does not give fails its test.
checkAnswersAgainstContract(true);

// jsdom lacks a few browser APIs that Radix primitives call (Select, Toast swipe, Popper).
// Harmless stand-ins let component tests drive them with user-event.
if (typeof window !== "undefined") {
  const proto = window.HTMLElement.prototype as HTMLElement & Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.setPointerCapture ??= () => {};
  proto.releasePointerCapture ??= () => {};
  proto.scrollIntoView ??= () => {};
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// Every test starts with an empty localStorage so beta markers and session tokens never leak between tests.
beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
