import { useSyncExternalStore } from "react";

/**
 * A tiny global toast queue so any code (mutation callbacks, not only components) can call
 * `toast(...)`. The product's alerts (docs/product.md §2.5) (e.g. 'Failed to archive error') are shown through it.
 */
export type ToastVariant = "default" | "success" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes itself; Radix pauses the timer on hover and focus. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
}

const MAX_TOASTS = 5;
let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = nextId++;
  emit([...toasts, { ...options, id, open: true }].slice(-MAX_TOASTS));
  return { id, dismiss: () => dismissToast(id) };
}

/** Closes a toast (Radix then plays its exit) and drops it from the queue. */
export function dismissToast(id?: number): void {
  emit(toasts.filter((t) => id !== undefined && t.id !== id));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = () => toasts;

export function useToast(): { toasts: ToastItem[]; toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: current, toast, dismiss: dismissToast };
}
