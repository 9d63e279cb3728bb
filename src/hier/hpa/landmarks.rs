//! The landmarks of the abstract search's ALT heuristic (Goldberg and Harrelson 2005): per
//! landmark portal, the abstract route costs from it to every portal and from every portal
//! to it, one Dijkstra each way.
//!
//! Both ways, because walking is far from symmetric (a block climbed costs 10, a block
//! dropped 2): the bound `d(L, goal) - d(L, v)` is tight when the landmark lies behind `v`,
//! `d(v, L) - d(goal, L)` when it lies beyond the goal.

use glam::IVec3;

use super::Abstraction;
use crate::search::open::OpenSet;

/// The landmarks: the portals nearest to the corners and the middles of the sides of the
/// area the portals span (the first [`LANDMARKS`] of those 8 aims). Farthest selection (each
/// next landmark the portal farthest from those chosen) expanded 13% more on 8 pairs at
/// 2048.
pub(super) const LANDMARKS: usize = 8;

/// The distances kept per portal slot: to and from each landmark.
pub(super) const LANDMARK_VALUES: usize = 2 * LANDMARKS;

/// A landmark distance for a portal the landmark does not reach, or that does not reach it.
pub(super) const NO_ROUTE: u32 = u32::MAX;

impl Abstraction {
    /// Computes the landmark distances again (two Dijkstras over the portals per landmark)
    /// after updates left them stale: until then the abstract search estimates with the
    /// octile heuristic alone, exploring more (see the
    /// [module docs](crate::hier#the-inexact-abstraction-hpa)). [`Abstraction::build`]
    /// computes them; [`Abstraction::update`] drops them when the graph changed.
    pub fn refresh_landmarks(&mut self) {
        if !self.landmarks.is_empty() {
            return;
        }
        let slots = self.slot_cell.len();
        let mut portals: Vec<(IVec3, u32)> = Vec::new();
        for cell in &self.cells {
            for (local, &feet) in cell.feet.iter().enumerate() {
                portals.push((feet, cell.base + local as u32));
            }
        }
        let Some(low) = portals.iter().map(|p| p.0).reduce(IVec3::min) else {
            return;
        };
        let high = portals.iter().map(|p| p.0).fold(low, IVec3::max);
        let middle = (low + high) / 2;
        // The transitions into each slot, `(to, from, cost)` sorted, for the Dijkstras
        // toward a landmark (in-cell edges into a portal are a column of its cell's table).
        let mut into = Vec::new();
        for slot in 0..slots as u32 {
            let own = self.slot_cell[slot as usize];
            self.for_each_edge(slot, |next, cost| {
                if self.slot_cell[next as usize] != own {
                    into.push((next, slot, cost));
                }
            });
        }
        into.sort_unstable();
        let mut landmarks = vec![NO_ROUTE; slots * LANDMARK_VALUES];
        let mut dist: Vec<u64> = Vec::new();
        // Dijkstra pops costs in order, all a radix heap needs.
        let mut heap = OpenSet::default();
        let aims = [
            (low.x, low.z),
            (high.x, high.z),
            (low.x, high.z),
            (high.x, low.z),
            (middle.x, low.z),
            (middle.x, high.z),
            (low.x, middle.z),
            (high.x, middle.z),
        ];
        for (l, &(x, z)) in aims.iter().enumerate().take(LANDMARKS) {
            let aim = IVec3::new(x, 0, z);
            let Some(&(_, source)) = portals.iter().min_by_key(|(feet, _)| {
                let d = (*feet - aim).abs();
                (i64::from(d.x) + i64::from(d.z), feet.to_array())
            }) else {
                continue;
            };
            for backward in [false, true] {
                dist.clear();
                dist.resize(slots, u64::MAX);
                dist[source as usize] = 0;
                heap.reset(0);
                heap.push(0, 0, source);
                let value = 2 * l + usize::from(backward);
                while let Some((g, slot)) = heap.pop() {
                    if g > dist[slot as usize] {
                        continue;
                    }
                    landmarks[slot as usize * LANDMARK_VALUES + value] =
                        u32::try_from(g).unwrap_or(NO_ROUTE);
                    let mut visit = |next: u32, cost: u32| {
                        let reached = g + u64::from(cost);
                        if reached < dist[next as usize] {
                            dist[next as usize] = reached;
                            heap.push(reached, reached, next);
                        }
                    };
                    if backward {
                        self.for_each_edge_into(slot, &into, &mut visit);
                    } else {
                        self.for_each_edge(slot, &mut visit);
                    }
                }
            }
        }
        self.landmarks = landmarks;
    }

    /// Visits the abstract edges into the portal in `slot`, `(from, cost)`: its table column
    /// and the transitions in `into` (sorted, `(to, from, cost)`).
    fn for_each_edge_into(
        &self,
        slot: u32,
        into: &[(u32, u32, u32)],
        mut visit: impl FnMut(u32, u32),
    ) {
        let Some((cell, local)) = self.slot_portal(slot) else {
            return;
        };
        let n = cell.portals.len();
        for other in (0..n).filter(|&other| other != local) {
            if let Some(cost) = cell.table.get(other * n + local) {
                visit(cell.base + other as u32, cost);
            }
        }
        let first = into.partition_point(|&(to, _, _)| to < slot);
        for &(_, from, cost) in into[first..].iter().take_while(|&&(to, _, _)| to == slot) {
            visit(from, cost);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::{LANDMARK_VALUES, LANDMARKS, NO_ROUTE};
    use crate::graph::NavGraph;
    use crate::hier::Abstraction;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::world::{Block, ChunkedWorld};

    /// Every landmark distance both ways is a shortest abstract route cost: no edge
    /// shortens one (Bellman's condition), and each but the landmark's own 0 is met by some
    /// edge, on terraces 4 x 4 cells wide where climbing costs 5 times a drop.
    #[test]
    fn landmark_distances_both_ways_are_shortest_abstract_costs() {
        let mut world = ChunkedWorld::with_size(IVec3::new(64, 8, 64)).expect("valid size");
        for x in 0..64 {
            for z in 0..64 {
                // Terraces one block apart, with cliffs of 3 every 16 blocks along x.
                let top = (x * 7 + z * 3) / 23 % 4 + if x % 16 == 7 { 3 } else { 0 };
                world
                    .fill(IVec3::new(x, 0, z), IVec3::new(x, top, z), Block::Solid)
                    .expect("inside");
            }
        }
        let graph = NavGraph::compile(&world, &Agent::default()).expect("compiles");
        let hpa = Abstraction::build(&graph, &MoveCosts::default()).expect("builds");
        assert!(hpa.landmarks_current());
        let slots = hpa.slot_cell.len() as u32;
        let mut edges = Vec::new();
        for slot in 0..slots {
            hpa.for_each_edge(slot, |next, cost| edges.push((slot, next, u64::from(cost))));
        }
        assert!(edges.len() > 100, "a world of {} edges", edges.len());
        let value = |slot: u32, v: usize| {
            let d = hpa.landmarks[slot as usize * LANDMARK_VALUES + v];
            (d != NO_ROUTE).then_some(u64::from(d))
        };
        for l in 0..LANDMARKS {
            let (from, to) = (2 * l, 2 * l + 1);
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
}
