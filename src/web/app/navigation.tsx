import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useState, useSyncExternalStore, useTransition, type ContextType, type ReactNode } from "react";
import { Router, UNSAFE_createBrowserHistory as createBrowserHistory, type UNSAFE_createMemoryHistory, UNSAFE_NavigationContext, parsePath, useLocation, type Location, type To } from "react-router";

/** The browser's history, or in tests a memory one. */
type History = ReturnType<typeof createBrowserHistory> | ReturnType<typeof UNSAFE_createMemoryHistory>;
type Navigator = ContextType<typeof UNSAFE_NavigationContext>["navigator"];
type Update = { action: History["action"]; location: Location };
type ShouldBlock = (args: { currentLocation: Location; nextLocation: Location }) => boolean;

/** What a screen gets from useLeaveBlocker: the shape of React Router's own blocker. */
export type LeaveBlocker = { state: "unblocked"; proceed?: undefined; reset?: undefined } | { state: "blocked"; proceed: () => void; reset: () => void };

/**
 * The panel's navigation (issue 23): React Router's declarative <Router> over one history, instead
 * of its data router (createBrowserRouter), which was 17 kB gzip of the JS a signed-in admin
 * downloads before the dashboard shows. The two things the panel used from the data router are
 * here: a blocker (the settings' unsaved changes) and whether a navigation is pending (the layout's
 * thin bar; screens are lazy and load inside a transition, so the old screen stays meanwhile).
 */
export interface AppNavigation {
  history: History;
  navigator: Navigator;
  /** Every change the router should show (blocked ones never arrive); returns the unsubscribe. */
  listen(listener: (update: Update) => void): () => void;
  /** Installs the one blocker (a screen's guard); returns its removal. */
  block(shouldBlock: ShouldBlock): () => void;
  subscribeBlocked(listener: () => void): () => void;
  blocked(): LeaveBlocker;
  /** Navigates as a link would (tests, and code outside the router). */
  navigate(to: To): void;
}

export function createAppNavigation(history: History = createBrowserHistory({ v5Compat: true })): AppNavigation {
  let shouldBlock: ShouldBlock | null = null;
  let blocked: LeaveBlocker = { state: "unblocked" };
  let shown = history.location;
  // Back/forward steps the navigation takes itself: undoing a blocked one (never shown), and
  // taking it again on proceed (shown without asking again).
  let skipPops = 0;
  let passPops = 0;
  const listeners = new Set<(update: Update) => void>();
  const blockedListeners = new Set<() => void>();
  const setBlocked = (next: LeaveBlocker) => {
    blocked = next;
    blockedListeners.forEach((l) => l());
  };
  const holds = (nextLocation: Location) => shouldBlock !== null && shouldBlock({ currentLocation: shown, nextLocation });
  const hold = (go: () => void) =>
    setBlocked({
      state: "blocked",
      proceed: () => {
        setBlocked({ state: "unblocked" });
        go();
      },
      reset: () => setBlocked({ state: "unblocked" }),
    });
  const guarded = (to: To, go: () => void) => {
    const next = { ...shown, hash: "", search: "", state: null, key: "", ...(typeof to === "string" ? parsePath(to) : to) };
    if (holds(next)) hold(go);
    else go();
  };

  history.listen(({ action, location, delta }) => {
    if (action === "POP") {
      // Back or forward: the URL has moved already. A blocked one is undone and held like a push.
      if (skipPops > 0) {
        skipPops--;
        return;
      }
      if (passPops > 0) passPops--;
      else if (delta && holds(location)) {
        skipPops++;
        history.go(-delta);
        hold(() => {
          passPops++;
          history.go(delta);
        });
        return;
      }
    }
    shown = location;
    listeners.forEach((l) => l({ action, location }));
  });

  const navigator: Navigator = {
    createHref: (to) => history.createHref(to),
    encodeLocation: (to) => history.encodeLocation(to),
    go: (delta) => history.go(delta),
    push: (to, state) => guarded(to, () => history.push(to, state)),
    replace: (to, state) => guarded(to, () => history.replace(to, state)),
  };
  return {
    history,
    navigator,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    block(next) {
      shouldBlock = next;
      return () => {
        if (shouldBlock === next) shouldBlock = null;
      };
    },
    subscribeBlocked(listener) {
      blockedListeners.add(listener);
      return () => blockedListeners.delete(listener);
    },
    blocked: () => blocked,
    navigate: (to) => navigator.push(to),
  };
}

const NavigationContext = createContext<AppNavigation | null>(null);
const PendingContext = createContext(false);

/** React Router's <Router> over the panel's navigation; every change renders in a transition. */
export function AppRouter({ navigation, children }: { navigation: AppNavigation; children: ReactNode }) {
  const [state, setState] = useState<Update>(() => ({ action: navigation.history.action, location: navigation.history.location }));
  const [pending, startTransition] = useTransition();
  useLayoutEffect(() => navigation.listen((update) => startTransition(() => setState(update))), [navigation]);
  return (
    <NavigationContext.Provider value={navigation}>
      <PendingContext.Provider value={pending}>
        <Router location={state.location} navigationType={state.action} navigator={navigation.navigator}>
          {children}
        </Router>
      </PendingContext.Provider>
    </NavigationContext.Provider>
  );
}

/** Whether a navigation waits for its screen (its code, lazily loaded). */
export function useNavigationPending(): boolean {
  return useContext(PendingContext);
}

/**
 * Asks whether the URL still names the screen calling it. A link followed while the next screen's
 * code loads leaves this one on show (the transition), and something it settles then (a search
 * typed just before) must not send the user back. Outside AppRouter the answer is always yes.
 */
export function useStillShown(): () => boolean {
  const navigation = useContext(NavigationContext);
  const { pathname } = useLocation();
  return useCallback(() => !navigation || navigation.history.location.pathname === pathname, [navigation, pathname]);
}

/**
 * Reads the URL's query as it is at the moment of the call (null outside AppRouter). A navigation
 * renders in a transition (AppRouter), so until its screen has rendered, what React Router's hooks
 * hand out is the URL before it: a change computed from that one would undo the navigation.
 */
export function useCurrentSearch(): () => string | null {
  const navigation = useContext(NavigationContext);
  return useCallback(() => (navigation ? navigation.history.location.search : null), [navigation]);
}

const unblocked: LeaveBlocker = { state: "unblocked" };
const noSubscription = () => () => {};

/**
 * Holds navigations away from the screen while `shouldBlock` says so, as React Router's useBlocker
 * does: the answer is "blocked" with proceed and reset until the screen decides. Outside AppRouter
 * (a screen rendered alone) nothing is held.
 */
export function useLeaveBlocker(shouldBlock: ShouldBlock): LeaveBlocker {
  const navigation = useContext(NavigationContext);
  useEffect(() => navigation?.block(shouldBlock), [navigation, shouldBlock]);
  return useSyncExternalStore(navigation?.subscribeBlocked ?? noSubscription, navigation?.blocked ?? (() => unblocked));
}
