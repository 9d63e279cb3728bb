//! The one A* loop of the crate, generic over a [`MoveSource`] (where a node's successors come
//! from) and a [`RecordTable`] (where node state lives); see the [module docs](super).
//!
//! Every engine sets up its source and table, calls [`run`], and turns the [`Ended`] search into
//! a [`SearchResult`] with [`Ended::finish`]. The loop owns everything the engines share: the
//! open set, the stale-entry test, the goal test, the budget check, the counters, the best
//! partial node and the relaxation order (the table's test first, then the estimate, then the
//! push), so that a fix or a speed-up to any of them is made once.

use std::time::Instant;

use glam::IVec3;

use super::heuristic::Estimator;
use super::open::OpenSet;
use super::{Budget, Goal, SearchResult, SearchStats, SearchStatus};

/// What a [`RecordTable`] says of a successor offered at a cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Offer {
    /// Known at a cost no higher: nothing changes.
    Kept,
    /// New, or reached more cheaply than before (open again): its node number.
    Taken(u32),
    /// The table holds no more nodes: the search stops with its best partial route.
    Full,
    /// The cost does not fit the table's records: the search must be run again with wider
    /// ones.
    Overflow,
}

/// Where a search keeps its node records: best cost, how the node was reached, open or closed.
/// Nodes are numbered by the table (`u32`): a node index, a cell, a graph node id.
pub(crate) trait RecordTable {
    /// A node's record, as the loop hands it to the source.
    type Record: Copy;
    /// Where a successor lies, as its source names it (a position, a cell, a node id).
    type At: Copy;
    /// What a record keeps of the move that reached it, besides its parent.
    type Via: Copy;

    /// The record of `node` when it is open; `None` when it is closed (an open-set entry left
    /// behind by a cheaper route, which popped first).
    fn open_record(&mut self, node: u32) -> Option<Self::Record>;
    /// The cost of the best route found to a record's node.
    fn g(record: Self::Record) -> u64;
    /// Marks `node` closed.
    fn close(&mut self, node: u32);
    /// Whether the table must stop the search before its next expansion (it could not hold
    /// the nodes one more expansion makes).
    #[inline]
    fn nearly_full(&self) -> bool {
        false
    }
    /// A route of cost `g` to the successor at `at`, from `parent` by the move `via`: taken
    /// when the successor is new or the route is cheaper than its record's.
    fn offer(&mut self, at: Self::At, g: u64, parent: u32, via: Self::Via) -> Offer;
}

/// How a source names where a move lands, so that the loop works the position out only for
/// a successor it keeps (which needs the estimate), not for every move it tries.
pub(crate) trait Landing: Copy {
    /// The feet position the move from `from` lands on.
    fn feet(self, from: IVec3) -> IVec3;
}

/// A move's target feet position itself.
impl Landing for IVec3 {
    #[inline]
    fn feet(self, _: IVec3) -> IVec3 {
        self
    }
}

/// What a successor is to the loop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Successor<A, V, L> {
    /// Where it lies, in the table's terms.
    pub(crate) at: A,
    /// Where the move lands.
    pub(crate) landing: L,
    /// The cost of the move to it.
    pub(crate) cost: u32,
    /// How its record names the move.
    pub(crate) via: V,
}

/// Where a node's successors come from: the walking rules on the fly, the flying and swimming
/// rules, the compiled graph forward or backward. A source is chosen once per search, so the
/// loop never asks which rules apply.
pub(crate) trait MoveSource<T: RecordTable> {
    /// How a successor names its position.
    type Landing: Landing;

    /// The feet position of `node`.
    fn feet(&self, table: &T, node: u32) -> IVec3;

    /// Hands each successor of `node` (at `feet`, with record `record`) to `relax`, which
    /// returns false when the search must stop (the source then returns at once).
    fn expand(
        &mut self,
        table: &mut T,
        node: u32,
        record: T::Record,
        feet: IVec3,
        relax: impl FnMut(&mut T, Successor<T::At, T::Via, Self::Landing>) -> bool,
    );
}

/// How a search loop ended, before its route is read back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ended {
    /// The goal's node, when reached.
    pub(crate) found: Option<u32>,
    /// Whether a budget or the table's capacity stopped it.
    pub(crate) stopped: bool,
    /// The node closest to the goal by the estimate (the cheaper one among equals), for a
    /// partial route; only kept when `BUDGETED`.
    pub(crate) best: u32,
    pub(crate) stats: SearchStats,
}

/// Runs A* from `start` (whose record the table holds already, at cost 0) until `goal` is
/// reached, the budget runs out, the table is full, or the open set is empty. `BUDGETED`
/// false drops the budget check and the best-node bookkeeping, for searches no budget can
/// stop. `None` when the table met a cost it cannot hold ([`Offer::Overflow`]).
#[inline]
pub(crate) fn run<T, S, G, const BUDGETED: bool>(
    table: &mut T,
    source: &mut S,
    open: &mut OpenSet,
    start: u32,
    goal: &G,
    estimator: &Estimator,
    budget: &Budget,
) -> Option<Ended>
where
    T: RecordTable,
    S: MoveSource<T>,
    G: Goal + ?Sized,
{
    let mut stats = SearchStats::default();
    let start_h = goal.estimate(source.feet(table, start), estimator);
    open.reset(start_h);
    open.push(start_h, 0, start);
    stats.generated = 1;
    let (mut best, mut best_h, mut best_g) = (start, start_h, 0u64);
    let mut found = None;
    let mut stopped = false;
    let mut overflow = false;
    while let Some((_, node)) = open.pop() {
        // The open set pops true minima and a node's estimate never changes, so the entry of
        // a node's cheapest route pops before its older ones, which find it closed.
        let Some(current) = table.open_record(node) else {
            continue;
        };
        let feet = source.feet(table, node);
        if goal.is_reached(feet) {
            found = Some(node);
            break;
        }
        if (BUDGETED && budget.exhausted(stats.expanded)) || table.nearly_full() {
            stopped = true;
            break;
        }
        table.close(node);
        stats.expanded += 1;
        let current_g = T::g(current);
        source.expand(table, node, current, feet, |table, next| {
            let g = current_g + u64::from(next.cost);
            let to = match table.offer(next.at, g, node, next.via) {
                Offer::Taken(to) => to,
                Offer::Kept => return true,
                Offer::Full => {
                    stopped = true;
                    return false;
                }
                Offer::Overflow => {
                    overflow = true;
                    return false;
                }
            };
            let h = goal.estimate(next.landing.feet(feet), estimator);
            open.push(g + h, g, to);
            stats.generated += 1;
            if BUDGETED && (h, g) < (best_h, best_g) {
                (best, best_h, best_g) = (to, h, g);
            }
            true
        });
        if overflow {
            return None;
        }
        if stopped {
            break;
        }
    }
    Some(Ended {
        found,
        stopped,
        best,
        stats,
    })
}

impl Ended {
    /// The one place a search's [`SearchResult`] is built: found (the route to the goal),
    /// partial (a budget or the table stopped it: the route to the best node) or unreachable.
    /// `route` walks back from the end node: the positions from it to the start, and its cost.
    pub(crate) fn finish(
        self,
        started: Instant,
        route: impl FnOnce(u32) -> (Vec<IVec3>, u64),
    ) -> SearchResult {
        let Ended {
            found,
            stopped,
            best,
            mut stats,
        } = self;
        let end = match (found, stopped) {
            (Some(node), _) => Some((SearchStatus::Found, node)),
            (None, true) => Some((SearchStatus::Partial, best)),
            (None, false) => None,
        };
        let Some((status, end)) = end else {
            stats.elapsed = started.elapsed();
            return SearchResult::unreachable(stats);
        };
        let (mut path, cost) = route(end);
        path.reverse();
        stats.elapsed = started.elapsed();
        SearchResult {
            status,
            path,
            cost: Some(cost),
            stats,
        }
    }
}

/// A fresh record array of `len` copies of `zero`, a value whose bytes are all zero (`0`,
/// `[0; 4]`: the records of the dense tables are plain words for this). `vec![zero; len]` of
/// such a type asks the allocator for zeroed memory, which a large array gets as pages the
/// system maps only when first touched: a search then pays for the pages of the records it
/// reaches, not for writing every record.
pub(crate) fn zeroed_records<T: Copy>(zero: T, len: usize) -> Vec<T> {
    vec![zero; len]
}

/// Writes one record per 4 kB page of `records` (each with its own value), so that the
/// searches to come meet no page fault in them: what a `reserve_for` promises.
pub(crate) fn map_pages<T: Copy>(records: &mut [T]) {
    let per_page = (4096 / std::mem::size_of::<T>().max(1)).max(1);
    for record in records.iter_mut().step_by(per_page) {
        // A store the compiler cannot drop as one of the value already there.
        *record = std::hint::black_box(*record);
    }
}

#[cfg(test)]
mod tests {
    use super::{map_pages, zeroed_records};

    /// A fresh array is all zeros at its full length, and mapping its pages changes no record,
    /// whatever the record's size (one record per page written back, others left alone).
    #[test]
    fn zeroed_records_are_zero_and_mapping_pages_keeps_every_value() {
        let fresh = zeroed_records((0u32, 0u32), 100_000);
        assert_eq!(fresh.len(), 100_000);
        assert!(fresh.iter().all(|&record| record == (0, 0)));

        let mut narrow: Vec<(u32, u32)> = (0..100_000u32).map(|i| (i, !i)).collect();
        map_pages(&mut narrow);
        assert!(
            narrow
                .iter()
                .enumerate()
                .all(|(i, &r)| r == (i as u32, !(i as u32)))
        );

        let mut wide: Vec<[u32; 4]> = (0..50_000u32).map(|i| [i, i + 1, i + 2, i + 3]).collect();
        map_pages(&mut wide);
        assert!(
            wide.iter()
                .enumerate()
                .all(|(i, r)| r[0] == i as u32 && r[3] == i as u32 + 3)
        );

        let mut empty: Vec<u64> = Vec::new();
        map_pages(&mut empty);
        assert!(empty.is_empty());
    }
}
