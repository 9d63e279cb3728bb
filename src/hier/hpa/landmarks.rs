//! The landmarks of the abstract search's ALT heuristic (Goldberg and Harrelson 2005): per
//! landmark portal, the abstract route costs from it to every portal and from every portal
//! to it, one Dijkstra each way, kept quantised in a [`LandmarkTable`].
//!
//! Both ways, because walking is far from symmetric (a block climbed costs 10, a block
//! dropped 2): the bound `d(L, goal) - d(L, v)` is tight when the landmark lies behind `v`,
//! `d(v, L) - d(goal, L)` when it lies beyond the goal.
//!
//! The searches read each slot's transitions from a list per slot, and the in-cell edges
//! into a slot (its table column, strided across its cell's block) from the columns turned
//! into lists once per refresh ([`Links`]: 8 bytes an edge while the searches run, 12.2 MB
//! at 1024, 50.5 MB at 2048), over Dial's buckets in a ring (`landmarks/ring.rs`). The first probe is
//! the first landmark when its part is the core. Build at 1024 (callgrind
//! `--toggle-collect='*Abstraction*build*'`, `long --size 1024 --pairs 1 --edits 0`), the
//! landmark refresh: 2.98 G instructions before, 2.40 G with the transitions by slot and the
//! probe reused, 2.08 G with the columns, 1.62 G with the ring (the searches 2.52 G to
//! 1.06 G); the same distances. Recording a batch's searches slot by slot instead of way by
//! way (one pass over the 80-byte rows of the table per batch, the quantum grown in way
//! order) cut the first-level cache misses by 3.2% (26.4 M to 25.5 M) for 1.6% more
//! instructions (7.93 G to 8.06 G): dropped.

use glam::IVec3;

use super::Abstraction;
use super::alt::{GoalBound, LandmarkTable};

mod ring;

use ring::Ring;

/// The landmarks: the portals nearest to points spread evenly along the border of the area
/// the portals span, starting at a corner (with 8: the corners and the middles of the sides).
///
/// Each takes 2 bytes per stored portal (a byte each way, `alt.rs`; about half the portals
/// are derived and store none): 0.5 MB at 2048, and 8 bytes per cell of scales
/// (0.13 MB). Measured with
/// 16-bit values (4 bytes per portal) and windows 2 cells wide stepping 1, expansions per
/// query with the windows', memory on top of
/// the graph's 78.1 MB, instructions of the timed queries at 1024 (`HIER_ENGINE=graph,hpa
/// long --edits 0 --weight 1` at 2048, 200 pairs; callgrind `--toggle-collect='*timed_hpa*'
/// --size 1024 --pairs 20`):
///
/// | landmarks | expansions at 2048 | memory at 2048 | expansions at 1024 | instructions at 1024 |
/// |---|---|---|---|---|
/// | 24 | 8 016 | 77.5 MB, 99% | 4 867 | 104.4 M |
/// | **20** | 8 373 (+4.5%) | 69.9 MB, 90% | 5 057 (+3.9%) | 107.9 M (+3.3%) |
/// | 16 | 8 786 (+9.6%) | 62.3 MB, 80% | 5 377 (+10.5%) | 111.9 M (+7.2%) |
///
/// With a byte per way and derived slots (`alt.rs`; same commands, `--weight 1` at 1024, the
/// machine busy, so expansions and instructions only):
///
/// | landmarks | expansions at 2048 | memory at 2048 | expansions at 1024 | instructions at 1024 |
/// |---|---|---|---|---|
/// | 20, every slot stored | 9 015 | 52.3 MB, 67% | 5 727 | 108.6 M |
/// | **20** | 9 886 (+9.7%) | 44.8 MB, 57% | 5 836 (+1.9%) | 115.7 M (+6.6%) |
/// | 16 | 10 286 (+14.1%) | 42.4 MB, 54% | 6 288 (+9.8%) | 121.8 M (+12.2%) |
///
/// 12 expanded 7% more than 16 (20 pairs at 2048, earlier windows). Kept per cell instead of per portal (the
/// lowest and highest distance of the cell's portals, 24 landmarks, 3.1 MB) the bound
/// loosened by the cell's spread (565 units on average at 1024, 40 blocks' worth: cliffs and
/// water split cells) and the query expanded 4.7 times as many (51 076 against 10 922 with
/// the earlier windows, 20 pairs); planes fitted per cell (least-squares slopes, offsets
/// just below and above every portal) narrowed the spread to 482 only, 49 144 expansions.
///
/// Chosen by Goldberg and Werneck's "avoid" rule instead (2005: the first landmark as here,
/// then each next one the leaf reached from a random portal of the core down its
/// shortest-route tree, always towards the subtree whose routes the landmarks so far bound
/// worst, past subtrees holding a landmark): 8 931 expansions per query against 7 933 at 1024
/// (`HIER_ENGINE=hpa long --size 1024 --pairs 100 --edits 0 --weight 1`, session 27, a
/// scratch build), for a third more landmark searches at build. Random pairs over a square of
/// land are bounded best from its border: dropped.
pub(super) const LANDMARKS: usize = 20;

/// The values kept per slot: the distance from and to each landmark.
pub(super) const LANDMARK_WAYS: usize = 2 * LANDMARKS;

/// The threads landmark searches run on: those of rayon's current pool with the `rayon`
/// feature, else 1.
fn pool_width() -> usize {
    #[cfg(feature = "rayon")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "rayon"))]
    {
        1
    }
}

/// `count` points spread evenly along the border of the rectangle from `low` to `high` (x and
/// z), from the corner `low` on, counter-clockwise.
fn border_points(low: IVec3, high: IVec3, count: usize) -> Vec<(i32, i32)> {
    let (width, depth) = (i64::from(high.x - low.x), i64::from(high.z - low.z));
    let perimeter = 2 * (width + depth);
    let (lx, lz, hx, hz) = (
        i64::from(low.x),
        i64::from(low.z),
        i64::from(high.x),
        i64::from(high.z),
    );
    (0..count as i64)
        .map(|i| {
            let t = i * perimeter / count as i64;
            let (x, z) = if t < width {
                (lx + t, lz)
            } else if t < width + depth {
                (hx, lz + t - width)
            } else if t < 2 * width + depth {
                (hx - (t - width - depth), hz)
            } else {
                (lx, hz - (t - 2 * width - depth))
            };
            // Between `low` and `high`, so back in i32.
            (x as i32, z as i32)
        })
        .collect()
}

impl Abstraction {
    /// Computes the landmark distances again (two Dijkstras over the portals per landmark)
    /// after updates left them stale: until then the abstract search estimates with the
    /// octile heuristic alone, exploring more (see the
    /// [module docs](crate::hier#the-inexact-abstraction-hpa)). [`Abstraction::build`]
    /// computes them; [`Abstraction::update`] drops them when an edge became cheaper or new
    /// in a way their values do not allow (see `edits.rs`). With the `rayon` feature the searches run on rayon's current thread pool, as
    /// in [`Abstraction::build`].
    pub fn refresh_landmarks(&mut self) {
        if !self.landmarks.is_empty() {
            return;
        }
        let links = Links::new(self);
        if let Some(distances) = self.landmark_distances(&links) {
            self.landmarks = distances.pack(&self.slot_cell, &self.partners(&links));
        }
    }

    /// Per slot, the partner its landmark bound is derived from, `(partner, cost)` (see
    /// `alt.rs`), or `None` to keep its own values: over the transitions cheapest first, the
    /// target of one whose source is not derived is derived from it, and the source keeps its
    /// values. Most portals are the ends of one transition each way, so about half are
    /// derived.
    fn partners(&self, links: &Links) -> Vec<Option<(u32, u32)>> {
        let slots = self.slot_cell.len();
        let mut transitions = Vec::new();
        for slot in 0..slots as u32 {
            for &(to, cost) in links.out.of(slot) {
                transitions.push((cost, slot, to));
            }
        }
        transitions.sort_unstable();
        let mut keeps = vec![false; slots];
        let mut partners = vec![None; slots];
        for (cost, from, to) in transitions {
            let (from, to) = (from as usize, to as usize);
            if from != to && !keeps[to] && partners[to].is_none() && partners[from].is_none() {
                keeps[from] = true;
                partners[to] = Some((from as u32, cost));
            }
        }
        partners
    }

    /// The landmark bound toward a goal reached from the portals of cell `goal_cell` at the
    /// costs `rests` (per portal, `None`: it does not reach it), derived portals' distances
    /// bounded through their edges (see `alt.rs`). `None` without landmarks.
    pub(super) fn goal_bound(
        &self,
        goal_cell: u32,
        rests: &[Option<u64>],
    ) -> Option<GoalBound<LANDMARK_WAYS>> {
        let cell = &self.cells[goal_cell as usize];
        let side: Vec<(Option<u64>, u32)> = rests
            .iter()
            .enumerate()
            .map(|(local, &rest)| (rest, cell.base + local as u32))
            .collect();
        // The edges out of the derived portals that reach the goal, and the transitions into
        // them.
        let derived =
            |&(rest, slot): &(Option<u64>, u32)| rest.is_some() && !self.landmarks.is_stored(slot);
        let out: Vec<Vec<(u32, u32, u64)>> = side
            .iter()
            .map(|end| {
                let mut edges = Vec::new();
                if derived(end) {
                    self.for_each_edge(end.1, true, |next, cost| {
                        edges.push((next, self.slot_cell[next as usize], u64::from(cost)));
                    });
                }
                edges
            })
            .collect();
        let into = if side.iter().any(derived) {
            self.transitions_into(goal_cell as usize)
        } else {
            Vec::new()
        };
        self.landmarks.toward(&side, |slot| {
            let local = (slot - cell.base) as usize;
            let into = into.get(local).into_iter().flatten();
            let into = into.map(|&(from, cost)| (from, self.slot_cell[from as usize], cost));
            self.landmarks.reach_all(slot, goal_cell, into, &out[local])
        })
    }

    /// The landmark distances of every slot; `None` without portals.
    fn landmark_distances(&self, links: &Links) -> Option<LandmarkTable<LANDMARK_WAYS>> {
        let slots = self.slot_cell.len();
        let mut portals: Vec<(IVec3, u32)> = Vec::new();
        for cell in &self.cells {
            for local in 0..cell.portals.len() {
                portals.push((cell.feet(local), cell.base + local as u32));
            }
        }
        let low = portals.iter().map(|p| p.0).reduce(IVec3::min)?;
        let high = portals.iter().map(|p| p.0).fold(low, IVec3::max);
        let nearest = |aim: IVec3, within: &dyn Fn(u32) -> bool| {
            portals
                .iter()
                .filter(|&&(_, slot)| within(slot))
                .min_by_key(|(feet, _)| {
                    let d = (*feet - aim).abs();
                    (i64::from(d.x) + i64::from(d.z), feet.to_array())
                })
                .map(|&(_, slot)| slot)
        };
        let aims: Vec<IVec3> = border_points(low, high, LANDMARKS)
            .into_iter()
            .map(|(x, z)| IVec3::new(x, 0, z))
            .collect();
        // Landmarks only in the largest strongly connected part found (the portals a probe
        // reaches and that reach it): a landmark on an island bounds nothing elsewhere, and at
        // 1024 the portals nearest the border points left 72% of the distances unknown.
        // Probes from the portal nearest the first border point, then nearest the middle, then
        // nearest each other border point, until one part holds half the portals. The first
        // probe first: when its part is that one, it is the first landmark too, and its two
        // searches are the landmark's (2 of 42 searches saved).
        let mut core: Vec<bool> = Vec::new();
        let mut core_size = 0;
        let mut core_probe: Option<(u32, Vec<Vec<u64>>)> = None;
        let probe_aims = aims[..1]
            .iter()
            .copied()
            .chain(std::iter::once((low + high) / 2))
            .chain(aims[1..].iter().copied());
        for aim in probe_aims {
            let Some(probe) = nearest(aim, &|slot| core.get(slot as usize) != Some(&true)) else {
                break;
            };
            let found = self.shortest_each(&[(probe, false), (probe, true)], links);
            let part: Vec<bool> = found[0]
                .iter()
                .zip(&found[1])
                .map(|(&there, &home)| there != UNSEEN && home != UNSEEN)
                .collect();
            let size = part.iter().filter(|&&inside| inside).count();
            if size > core_size {
                (core, core_size) = (part, size);
                core_probe = Some((probe, found));
            }
            if core_size * 2 >= portals.len() {
                break;
            }
        }
        let mut landmarks = LandmarkTable::unknown(slots);
        // Per landmark way `(way, source, backward)`, searched two per thread at a time (each
        // search's distances take 8 bytes a slot) and recorded in order, so the table does
        // not depend on the threads. Two per thread: a batch's halves then hold a search each
        // way, so a thread given the slower way does not leave the other waiting. The core's
        // probe, when a landmark, is not searched again.
        let ways: Vec<(usize, u32, bool)> = aims
            .iter()
            .enumerate()
            .filter_map(|(l, &aim)| Some((l, nearest(aim, &|slot| core[slot as usize])?)))
            .flat_map(|(l, source)| [(2 * l, source, false), (2 * l + 1, source, true)])
            .collect();
        let record = |landmarks: &mut LandmarkTable<LANDMARK_WAYS>, way: usize, found: &[u64]| {
            for (slot, &reach) in found.iter().enumerate() {
                if reach != UNSEEN {
                    landmarks.set(slot as u32, way, reach >> 1);
                }
            }
        };
        let mut rest = &ways[..];
        if let Some((probe, found)) = core_probe
            && let [(way, source, false), (_, _, true), after @ ..] = rest
            && *source == probe
        {
            record(&mut landmarks, *way, &found[0]);
            record(&mut landmarks, way + 1, &found[1]);
            rest = after;
        }
        for batch in rest.chunks(2 * pool_width()) {
            let searches: Vec<(u32, bool)> = batch.iter().map(|&(_, s, b)| (s, b)).collect();
            for (&(way, _, _), found) in batch.iter().zip(self.shortest_each(&searches, links)) {
                record(&mut landmarks, way, &found);
            }
        }
        Some(landmarks)
    }

    /// The results of [`Self::shortest`] for each `(source, backward)` of `searches`, in
    /// their order: on rayon's current thread pool with the `rayon` feature (each search
    /// with its own distances and heap), else one after the other.
    fn shortest_each(&self, searches: &[(u32, bool)], links: &Links) -> Vec<Vec<u64>> {
        let search = |heap: &mut Ring, &(source, backward): &(u32, bool)| {
            let mut reach = Vec::new();
            self.shortest(source, backward, links, &mut reach, heap);
            reach
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            searches
                .par_iter()
                .map_init(Ring::default, search)
                .collect()
        }
        #[cfg(not(feature = "rayon"))]
        {
            let mut heap = Ring::default();
            searches.iter().map(|s| search(&mut heap, s)).collect()
        }
    }

    /// The abstract route costs from `source` to every slot (`backward`: from every slot to
    /// `source`) into `reach`, each shifted left by one above a flag (see below), [`UNSEEN`]
    /// for none.
    fn shortest(
        &self,
        source: u32,
        backward: bool,
        links: &Links,
        reach: &mut Vec<u64>,
        heap: &mut Ring,
    ) {
        reach.clear();
        reach.resize(self.slot_cell.len(), UNSEEN);
        reach[source as usize] = 0;
        let transitions = if backward { &links.into } else { &links.out };
        // The flag: whether a slot's distance came through its cell's table. Then its own
        // table row (column, backward) improves nothing, as in the abstract search (in-cell
        // costs are shortest routes), and only its transitions are relaxed. Most portals of a
        // cell are reached so; this cut the landmark Dijkstras' relaxations by most of the
        // rows. Kept with the distance: one load per relaxation.
        heap.reset();
        heap.push(0, source);
        while let Some((g, slot)) = heap.pop() {
            let state = reach[slot as usize];
            if g > state >> 1 {
                continue;
            }
            // Route costs stay far below 2^63: shifted, they still fit.
            let mut visit = |next: u32, cost: u32, inside: bool| {
                let reached = g + u64::from(cost);
                if reached < reach[next as usize] >> 1 {
                    reach[next as usize] = reached << 1 | u64::from(inside);
                    heap.push(reached, next);
                }
            };
            if state & 1 == 0 {
                if backward {
                    for &(from, cost) in links.columns.of(slot) {
                        visit(from, cost, true);
                    }
                } else if let Some((cell, local)) = self.slot_portal(slot) {
                    let base = cell.base;
                    cell.for_each_in_row(local, |other, cost| {
                        visit(base + other as u32, cost, true);
                    });
                }
            }
            for &(next, cost) in transitions.of(slot) {
                visit(next, cost, false);
            }
        }
    }
}

/// A slot not reached in [`Abstraction::shortest`].
const UNSEEN: u64 = u64::MAX;

/// The transitions at each slot one way, grouped by slot: `edges[first[s] .. first[s + 1]]`
/// are `(other slot, cost)` of those at slot `s`.
struct Adjacency {
    first: Vec<u32>,
    edges: Vec<(u32, u32)>,
}

impl Adjacency {
    /// The transitions at `slot`.
    #[inline]
    fn of(&self, slot: u32) -> &[(u32, u32)] {
        &self.edges[self.first[slot as usize] as usize..self.first[slot as usize + 1] as usize]
    }
}

/// The transitions out of each slot and into each slot, and the in-cell edges into each
/// slot (its table column): read by the landmark searches in one place per slot, not found
/// by a search among the cell's exits or read across the rows of its cell's block.
struct Links {
    out: Adjacency,
    into: Adjacency,
    columns: Adjacency,
}

impl Links {
    fn new(hpa: &Abstraction) -> Self {
        let slots = hpa.slot_cell.len();
        let mut first = Vec::with_capacity(slots + 1);
        let mut edges = Vec::new();
        for slot in 0..slots as u32 {
            first.push(edges.len() as u32);
            hpa.for_each_edge(slot, false, |next, cost| edges.push((next, cost)));
        }
        first.push(edges.len() as u32);
        let out = Adjacency { first, edges };
        // Turned around by a counting sort on the target, sources in slot order.
        let mut first = vec![0u32; slots + 1];
        for &(to, _) in &out.edges {
            first[to as usize + 1] += 1;
        }
        for slot in 0..slots {
            first[slot + 1] += first[slot];
        }
        let mut fill = first.clone();
        let mut edges = vec![(0, 0); out.edges.len()];
        for from in 0..slots as u32 {
            for &(to, cost) in out.of(from) {
                edges[fill[to as usize] as usize] = (from, cost);
                fill[to as usize] += 1;
            }
        }
        let into = Adjacency { first, edges };
        // The columns: every row read twice (to count, then to fill), rows in slot order.
        let mut first = vec![0u32; slots + 1];
        for_each_row_entry(hpa, |_, to, _| first[to as usize + 1] += 1);
        for slot in 0..slots {
            first[slot + 1] += first[slot];
        }
        let mut fill = first.clone();
        let mut edges = vec![(0, 0); first[slots] as usize];
        for_each_row_entry(hpa, |from, to, cost| {
            edges[fill[to as usize] as usize] = (from, cost);
            fill[to as usize] += 1;
        });
        Self {
            out,
            into,
            columns: Adjacency { first, edges },
        }
    }
}

/// Visits every in-cell edge of the abstraction, `(from slot, to slot, cost)`, rows in slot
/// order.
fn for_each_row_entry(hpa: &Abstraction, mut visit: impl FnMut(u32, u32, u32)) {
    for slot in 0..hpa.slot_cell.len() as u32 {
        if let Some((cell, local)) = hpa.slot_portal(slot) {
            cell.for_each_in_row(local, |other, cost| {
                visit(slot, cell.base + other as u32, cost);
            });
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use glam::IVec3;

    use super::{LANDMARKS, Links, border_points};
    use crate::graph::NavGraph;
    use crate::hier::Abstraction;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::world::{Block, ChunkedWorld};

    /// Terraces 4 x 4 cells wide, one block apart, with cliffs of 3 every 16 blocks along x,
    /// in a world `height` blocks high.
    pub(in crate::hier::hpa) fn terraces(height: i32) -> ChunkedWorld {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, height, 64)).expect("valid size");
        for x in 0..64 {
            for z in 0..64 {
                let top = (x * 7 + z * 3) / 23 % 4 + if x % 16 == 7 { 3 } else { 0 };
                world
                    .fill(IVec3::new(x, 0, z), IVec3::new(x, top, z), Block::Solid)
                    .expect("inside");
            }
        }
        world
    }

    /// Every landmark distance both ways is a shortest abstract route cost: no edge
    /// shortens one (Bellman's condition), and each but the landmark's own 0 is met by some
    /// edge, on terraces 4 x 4 cells wide where climbing costs 5 times a drop.
    #[test]
    fn landmark_distances_both_ways_are_shortest_abstract_costs() {
        let world = terraces(8);
        let graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
        let hpa = Abstraction::build(&graph, &MoveCosts::default()).expect("builds");
        assert!(hpa.landmarks_current());
        let slots = hpa.slot_cell.len() as u32;
        let mut edges = Vec::new();
        for slot in 0..slots {
            hpa.for_each_edge(slot, true, |next, cost| {
                edges.push((slot, next, u64::from(cost)));
            });
        }
        assert!(edges.len() > 100, "a world of {} edges", edges.len());
        // Costs on this small world fit 16 bits: the quantised distances are the distances.
        let distances = hpa.landmark_distances(&Links::new(&hpa)).expect("portals");
        assert_eq!(distances.quantum(), 1);
        for l in 0..LANDMARKS {
            let value = |slot: u32, to: bool| {
                let way = 2 * l + usize::from(to);
                distances.range(slot, way).map(|(low, _)| low)
            };
            let (from, to) = (false, true);
            let mut met = vec![[false; 2]; slots as usize];
            let mut asymmetric = false;
            for &(u, v, cost) in &edges {
                if let Some(du) = value(u, from) {
                    let dv = value(v, from).expect("an edge from a reached portal reaches");
                    assert!(dv <= du + cost, "landmark {l}: from-distance shortened");
                    met[v as usize][0] |= dv == du + cost;
                }
                if let Some(dv) = value(v, to) {
                    let du = value(u, to).expect("an edge into a portal that reaches, reaches");
                    assert!(du <= cost + dv, "landmark {l}: to-distance shortened");
                    met[u as usize][1] |= du == cost + dv;
                }
                asymmetric |= value(u, from) != value(u, to);
            }
            assert!(
                asymmetric,
                "landmark {l}: both ways alike, the test shows nothing"
            );
            for slot in 0..slots {
                for (way, v) in [from, to].into_iter().enumerate() {
                    if let Some(d) = value(slot, v) {
                        assert!(d == 0 || met[slot as usize][way], "landmark {l}: loose");
                    }
                }
            }
        }
    }

    /// A build on one thread and one on three make the same abstraction: the same edges, and
    /// the same landmark distances in the same quantum (the tables and searches run in
    /// parallel, their results applied in order), on terraces 8 x 8 cells wide with cliffs.
    #[cfg(feature = "rayon")]
    #[test]
    fn builds_on_one_thread_and_on_three_agree() {
        let mut world = ChunkedWorld::with_size(IVec3::new(128, 8, 128)).expect("valid size");
        for x in 0..128 {
            for z in 0..128 {
                let top = (x * 5 + z * 3) / 19 % 4 + if x % 16 == 7 || z % 37 == 3 { 3 } else { 0 };
                world
                    .fill(IVec3::new(x, 0, z), IVec3::new(x, top, z), Block::Solid)
                    .expect("inside");
            }
        }
        let graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
        let build = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            pool.install(|| Abstraction::build(&graph, &MoveCosts::default()).expect("builds"))
        };
        let (one, three) = (build(1), build(3));
        assert_eq!(one.cell_count(), 64);
        assert!(one.portal_count() > 500, "{} portals", one.portal_count());
        assert_eq!(one.edges(&graph), three.edges(&graph));
        assert_eq!(one.slot_cell, three.slot_cell);
        assert_eq!(one.landmarks.quantum(), three.landmarks.quantum());
        let mut known = 0;
        for slot in 0..one.slot_cell.len() as u32 {
            assert_eq!(
                one.landmarks.partner(slot),
                three.landmarks.partner(slot),
                "slot {slot}"
            );
            if !one.landmarks.is_stored(slot) {
                continue;
            }
            for way in 0..2 * LANDMARKS {
                let range = one.landmarks.range(slot, one.slot_cell[slot as usize], way);
                assert_eq!(
                    range,
                    three
                        .landmarks
                        .range(slot, three.slot_cell[slot as usize], way),
                    "slot {slot} way {way}"
                );
                known += usize::from(range.is_some());
            }
        }
        // Cliffs make one-way regions: not every distance is known, but many are.
        let stored = (0..one.slot_cell.len() as u32)
            .filter(|&slot| one.landmarks.is_stored(slot))
            .count();
        let all = stored * 2 * LANDMARKS;
        assert!(known * 4 > all, "{known} of {all} distances known");
    }

    /// The points lie on the rectangle's border, evenly spaced, the first at its corner.
    #[test]
    fn border_points_run_along_the_border() {
        let (low, high) = (IVec3::new(-40, 0, 100), IVec3::new(40, 0, 140));
        let points = border_points(low, high, 16);
        assert_eq!(points[0], (-40, 100));
        // Perimeter 240, a point per 15 blocks.
        assert_eq!(points[1], (-25, 100));
        assert_eq!(points[6], (40, 110));
        assert_eq!(points[11], (-5, 140));
        assert_eq!(points[15], (-40, 115));
        for &(x, z) in &points {
            assert!(x == low.x || x == high.x || z == low.z || z == high.z);
            assert!((low.x..=high.x).contains(&x) && (low.z..=high.z).contains(&z));
        }
    }

    /// Every landmark lies in the big connected part, not on the island in the corner where
    /// the portal nearest the corner of the portals' area is: each reaches, and is reached by,
    /// more than half the portals.
    #[test]
    fn landmarks_avoid_an_island_in_the_corner() {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, 8, 64)).expect("valid size");
        world
            .fill(IVec3::ZERO, IVec3::new(63, 0, 63), Block::Solid)
            .expect("inside");
        // A moat 3 columns wide with no floor around the island x, z < 20 (it spans the
        // borders at 16, so it has portals of its own).
        for x in 0..23 {
            for z in 0..23 {
                if x >= 20 || z >= 20 {
                    world.set(IVec3::new(x, 0, z), Block::Air).expect("inside");
                }
            }
        }
        let graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
        let hpa = Abstraction::build(&graph, &MoveCosts::default()).expect("builds");
        let distances = hpa.landmark_distances(&Links::new(&hpa)).expect("portals");
        let portals = hpa.portal_count();
        let island = hpa
            .cells
            .iter()
            .flat_map(|cell| (0..cell.portals.len()).map(|local| cell.feet(local)))
            .filter(|feet| feet.x < 20 && feet.z < 20)
            .count();
        assert!(island > 10, "the island has {island} portals only");
        for l in 0..LANDMARKS {
            let joined = (0..hpa.slot_cell.len() as u32)
                .filter(|&slot| {
                    distances.range(slot, 2 * l).is_some()
                        && distances.range(slot, 2 * l + 1).is_some()
                })
                .count();
            assert!(
                joined * 2 > portals,
                "landmark {l} is joined both ways to {joined} of {portals} portals"
            );
        }
    }
}
