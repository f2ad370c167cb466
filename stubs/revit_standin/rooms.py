"""Enclosed regions of a level's walls, as Revit finds room circuits: pure plan geometry.

Input: wall location lines in plan, ((x1, y1), (x2, y2), wall_id), feet. Curved walls are passed
as their chord (the caller's choice). Output: the bounded faces of the planar graph the lines
make, each a CCW polygon with the wall id of every edge.

How: every line is first extended by REACH at both ends, because a wall's location line (its
centre line) ends where the wall's face meets the wall it joins, half a thickness short of that
wall's line (Revit's exported IFC buildings are drawn so); endpoints closer than SNAP are merged;
every segment is split where another crosses it or where
another's endpoint lies on it (T-junctions); edges left dangling (a wall that ends in the open)
are pruned, since they bound nothing; then the faces are traced with the usual rule (at each
node turn to the next edge clockwise from the one arrived by), which gives each bounded face
once, counter-clockwise, and the outer face clockwise (negative area, dropped). Faces narrower
than MIN_WIDTH are the gaps between the two leaves of a double wall, not rooms. A region that is
not closed is simply not a face: it gets no room. O(n^2) in the walls of one level; the caller
caps n.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

SNAP = 0.5           # ft: endpoints this close are one node (half a typical wall's thickness)
MIN_AREA = 1.0       # sq ft: smaller faces are slivers between nearly coincident walls, not rooms
REACH = 1.0          # ft: how far a line is extended to meet the wall it joins (half a thick wall)
MIN_WIDTH = 1.5      # ft: a face narrower than this (2 * area / perimeter) is a gap inside walls


@dataclass(frozen=True)
class Region:
    points: tuple[tuple[float, float], ...]   # CCW, not closed
    wall_ids: tuple[int, ...]                 # the wall of edge i (points[i] -> points[i+1])

    @property
    def area(self) -> float:
        return signed_area(self.points)

    @property
    def perimeter(self) -> float:
        pts = self.points
        return sum(math.dist(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))

    def contains(self, x: float, y: float) -> bool:
        return point_in_polygon(self.points, x, y)

    def inside_point(self) -> tuple[float, float]:
        return inside_point(self.points)


def signed_area(points) -> float:
    return sum(points[i - 1][0] * p[1] - p[0] * points[i - 1][1] for i, p in enumerate(points)) / 2


def point_in_polygon(points, x: float, y: float) -> bool:
    """Ray casting to +X."""
    inside = False
    for i, (x2, y2) in enumerate(points):
        x1, y1 = points[i - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def inside_point(points) -> tuple[float, float]:
    """The centroid when it is inside (convex and most rooms), else the middle of the widest span
    of a horizontal line through the polygon's middle (an L or U room's centroid can be outside)."""
    area = signed_area(points)
    if abs(area) > 1e-9:
        cx = sum((points[i - 1][0] + p[0]) * (points[i - 1][0] * p[1] - p[0] * points[i - 1][1])
                 for i, p in enumerate(points)) / (6 * area)
        cy = sum((points[i - 1][1] + p[1]) * (points[i - 1][0] * p[1] - p[0] * points[i - 1][1])
                 for i, p in enumerate(points)) / (6 * area)
        if point_in_polygon(points, cx, cy):
            return cx, cy
    ys = sorted({p[1] for p in points})
    y = (ys[0] + ys[-1]) / 2 if len(ys) < 2 else next(
        (a + b) / 2 for a, b in sorted(zip(ys, ys[1:]), key=lambda ab: ab[0] - ab[1]))
    crossings = sorted(x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                       for (x1, y1), (x2, y2) in zip([points[-1], *points], points) if (y1 > y) != (y2 > y))
    spans = list(zip(crossings[::2], crossings[1::2])) or [(points[0][0], points[0][0])]
    a, b = max(spans, key=lambda s: s[1] - s[0])
    return (a + b) / 2, y


# --- the graph -------------------------------------------------------------------------------------


def regions(segments) -> list[Region]:
    """The enclosed regions of ``segments`` [((x1, y1), (x2, y2), wall_id)], largest first."""
    nodes, edges = _graph([_extended(a, b, wall) for a, b, wall in segments if math.dist(a, b) > SNAP])
    edges = _pruned(edges)
    faces = [_region(nodes, face) for face in _faces(nodes, edges)]
    return sorted((f for f in faces if f.area >= MIN_AREA and 2 * f.area / f.perimeter >= MIN_WIDTH),
                  key=lambda f: -f.area)


def _extended(a, b, wall):
    length = math.dist(a, b)
    dx, dy = (b[0] - a[0]) / length * REACH, (b[1] - a[1]) / length * REACH
    return (a[0] - dx, a[1] - dy), (b[0] + dx, b[1] + dy), wall


def _graph(segments):
    """Snapped nodes [(x, y)] and undirected edges {(a, b): wall_id}, a < b, split at crossings."""
    nodes: list[tuple[float, float]] = []

    def node(p) -> int:
        for i, q in enumerate(nodes):
            if math.dist(p, q) <= SNAP:
                return i
        nodes.append((float(p[0]), float(p[1])))
        return len(nodes) - 1

    lines = [(node(a), node(b), wall) for a, b, wall in segments]
    lines = [(a, b, w) for a, b, w in lines if a != b]
    cuts = {k: [] for k in range(len(lines))}   # parameters along each line where it is split
    for i, (a, b, _) in enumerate(lines):
        for j in range(i + 1, len(lines)):
            c, d, _ = lines[j]
            hit = _crossing(nodes[a], nodes[b], nodes[c], nodes[d])
            if hit is not None:
                t, u, point = hit
                k = node(point)
                cuts[i].append((t, k))
                cuts[j].append((u, k))
        for k in range(len(nodes)):      # T-junctions: another line's endpoint on this one
            t = _on_segment(nodes[a], nodes[b], nodes[k])
            if t is not None:
                cuts[i].append((t, k))
    edges: dict[tuple[int, int], int] = {}
    for i, (a, b, wall) in enumerate(lines):
        chain = [a] + [k for _, k in sorted(cuts[i])] + [b]
        for p, q in zip(chain, chain[1:]):
            if p != q:
                edges.setdefault((min(p, q), max(p, q)), wall)
    return nodes, edges


def _crossing(p1, p2, p3, p4):
    """(t, u, point) where the open segments p1p2 and p3p4 properly cross, else None."""
    dx1, dy1, dx2, dy2 = p2[0] - p1[0], p2[1] - p1[1], p4[0] - p3[0], p4[1] - p3[1]
    denominator = dx1 * dy2 - dy1 * dx2
    if abs(denominator) < 1e-12:
        return None
    t = ((p3[0] - p1[0]) * dy2 - (p3[1] - p1[1]) * dx2) / denominator
    u = ((p3[0] - p1[0]) * dy1 - (p3[1] - p1[1]) * dx1) / denominator
    if 1e-9 < t < 1 - 1e-9 and 1e-9 < u < 1 - 1e-9:
        return t, u, (p1[0] + t * dx1, p1[1] + t * dy1)
    return None


def _on_segment(a, b, p):
    """The parameter of p along ab when p lies on its interior (within SNAP), else None."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    if not 0 < t < 1 or math.dist(p, a) <= SNAP or math.dist(p, b) <= SNAP:
        return None
    return t if math.dist(p, (a[0] + t * dx, a[1] + t * dy)) <= SNAP else None


def _pruned(edges: dict) -> dict:
    """Without the edges that end at a node of degree 1, repeatedly: they bound no region."""
    edges = dict(edges)
    while True:
        degree: dict[int, int] = {}
        for a, b in edges:
            degree[a], degree[b] = degree.get(a, 0) + 1, degree.get(b, 0) + 1
        loose = [e for e in edges if degree[e[0]] == 1 or degree[e[1]] == 1]
        if not loose:
            return edges
        for e in loose:
            del edges[e]


def _faces(nodes, edges) -> list[list[tuple[int, int, int]]]:
    """Each face as its directed edges (from, to, wall): arriving at v from u, leave by the edge
    next clockwise from v->u, which keeps the face on the left."""
    around: dict[int, list[int]] = {}
    for a, b in edges:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    for v, others in around.items():   # counter-clockwise by angle
        others.sort(key=lambda w: math.atan2(nodes[w][1] - nodes[v][1], nodes[w][0] - nodes[v][0]))
    seen, faces = set(), []
    for a, b in edges:
        for start in ((a, b), (b, a)):
            if start in seen:
                continue
            face, (u, v) = [], start
            while (u, v) not in seen:
                seen.add((u, v))
                face.append((u, v, edges[(min(u, v), max(u, v))]))
                others = around[v]
                u, v = v, others[(others.index(u) - 1) % len(others)]
            faces.append(face)
    return faces


def _region(nodes, face) -> Region:
    return Region(points=tuple(nodes[u] for u, _, _ in face), wall_ids=tuple(w for _, _, w in face))
