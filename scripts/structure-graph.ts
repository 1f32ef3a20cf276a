/**
 * The server's modules as ARCHITECTURE.md names them: `platform/<x>`, `domain/<x>`,
 * `features/<area>`, any other top folder (`cli`, `demo-data`, …), or a root file (`app`, `routes`).
 */
export function moduleOf(source: string): string {
  const parts = source.replace(/^src\/server\//, "").split("/");
  const strip = (name: string) => name.replace(/\.tsx?$/, "");
  if (["platform", "domain", "features"].includes(parts[0]!)) return `${parts[0]}/${strip(parts[1]!)}`;
  return strip(parts[0]!);
}

/** Strongly connected components with more than one member (Tarjan): each is a cycle between modules. */
export function stronglyConnected(edges: Map<string, Set<string>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return components;
}
