import { UNSAFE_createMemoryHistory as createMemoryHistory } from "react-router";
import { describe, expect, it } from "vitest";
import { createAppNavigation } from "./navigation";

function start(entries: string[]) {
  const navigation = createAppNavigation(createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1, v5Compat: true }));
  const shown: string[] = [];
  navigation.listen(({ location }) => shown.push(location.pathname));
  return { navigation, shown };
}

describe("app navigation (the panel's router history)", () => {
  it("passes every change on while nothing blocks", () => {
    const { navigation, shown } = start(["/"]);
    navigation.navigate("/vendors");
    navigation.navigator.replace("/vendors?page=2");
    navigation.history.go(-1);
    expect(shown).toEqual(["/vendors", "/vendors", "/"]);
  });

  it("holds a blocked push until proceed, and drops it on reset", () => {
    const { navigation, shown } = start(["/settings"]);
    const unblock = navigation.block(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname);
    navigation.navigate("/settings?tab=1");
    expect(shown).toEqual(["/settings"]);
    navigation.navigate("/");
    expect(navigation.blocked().state).toBe("blocked");
    navigation.blocked().reset?.();
    expect(navigation.blocked().state).toBe("unblocked");
    expect(navigation.history.location.pathname).toBe("/settings");
    navigation.navigate("/");
    navigation.blocked().proceed?.();
    expect(shown).toEqual(["/settings", "/"]);
    unblock();
    navigation.navigate("/vendors");
    expect(navigation.history.location.pathname).toBe("/vendors");
  });

  it("undoes a blocked back step and takes it again on proceed", () => {
    const { navigation, shown } = start(["/", "/settings"]);
    navigation.block(({ nextLocation }) => nextLocation.pathname === "/");
    navigation.history.go(-1);
    expect(navigation.history.location.pathname).toBe("/settings");
    expect(shown).toEqual([]);
    expect(navigation.blocked().state).toBe("blocked");
    navigation.blocked().proceed?.();
    expect(navigation.history.location.pathname).toBe("/");
    expect(navigation.blocked().state).toBe("unblocked");
    expect(shown).toEqual(["/"]);
  });
});
