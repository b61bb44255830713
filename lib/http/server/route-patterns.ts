type Segment =
  | { kind: "static"; value: string }
  | { kind: "dynamic"; name: string }
  | { kind: "catch-all"; name: string; optional: boolean };

// At each position a literal segment wins over [id], which wins over [...rest]: Next's order.
const RANK = { static: 0, dynamic: 1, "catch-all": 2 } as const;

export interface RoutePatternMatch<T> {
  route: string;
  value: T;
  /** The dynamic segments as spelled in the path (not decoded). */
  params: Record<string, string | string[]>;
}

function parseSegment(s: string): Segment {
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(s);
  if (optional) return { kind: "catch-all", name: optional[1]!, optional: true };
  const rest = /^\[\.\.\.(.+)\]$/.exec(s);
  if (rest) return { kind: "catch-all", name: rest[1]!, optional: false };
  const dynamic = /^\[(.+)\]$/.exec(s);
  return dynamic ? { kind: "dynamic", name: dynamic[1]! } : { kind: "static", value: s };
}

function matchSegments(route: Segment[], path: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.length; i++) {
    const seg = route[i]!;
    if (seg.kind === "catch-all") {
      const rest = path.slice(i);
      if (rest.length === 0 && !seg.optional) return null;
      if (rest.length) params[seg.name] = rest;
      return params;
    }
    const value = path[i];
    if (value === undefined) return null;
    if (seg.kind === "static") {
      if (value !== seg.value) return null;
    } else params[seg.name] = value;
  }
  return path.length === route.length ? params : null;
}

function compareSpecificity(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const ra = a[i] ? RANK[a[i]!.kind] : -1;
    const rb = b[i] ? RANK[b[i]!.kind] : -1;
    if (ra !== rb) return ra - rb;
  }
  return 0;
}

/**
 * Next's app routes as a matcher (`/v1/payments/[id]`, `/api/auth/[...nextauth]`, `/v1/[[...path]]`): the most
 * specific route that matches a path wins, as in Next's router. Used for the metrics' route label and to
 * call /v1's handlers (api-routes.ts).
 */
export function routePatterns<T>(routes: [route: string, value: T][]): (path: string) => RoutePatternMatch<T> | null {
  const compiled = routes
    .map(([route, value]) => ({ route, value, segments: route.split("/").filter(Boolean).map(parseSegment) }))
    .sort((a, b) => compareSpecificity(a.segments, b.segments));
  return (path) => {
    const segments = path === "/" ? [] : path.slice(1).split("/");
    for (const c of compiled) {
      const params = matchSegments(c.segments, segments);
      if (params) return { route: c.route, value: c.value, params };
    }
    return null;
  };
}
