//! A hierarchy of cells over the compiled walk graph, for long routes: the walk graph's nodes
//! are grouped into cells (chunk columns), the nodes with a move across a cell's border are
//! its **portals**, and each cell keeps the exact cost of the cheapest route inside it from
//! every portal to every other. A long query then searches the **overlay** (portals joined by
//! those in-cell costs and by the graph's moves across borders) instead of every feet
//! position, and refines the overlay route into walk moves cell by cell.
//!
//! ## Design
//!
//! - **Cells are chunk columns** (16 x 16 columns, all heights), named by their chunk
//!   coordinates `(x.div_euclid(16), z.div_euclid(16))` of a node's feet, so cells sit on the
//!   columns the growing walk graph loads and unloads (see the [`graph`](crate::graph) module
//!   docs), at any offset, negative too. A cell holds the nodes of its column at every height.
//! - **Portals** are the nodes of a cell with a move to or from a node of another cell; only
//!   the 60 border columns can hold them (a move spans one column; ladders stay in theirs).
//! - **Tables**: per cell, a dense `n x n` table of costs (16 bits each when every cost in
//!   the cell fits, else 32), entry `(i, j)` the cheapest route from portal `i` to portal
//!   `j` using only moves inside the cell (the cell's moves laid out once as a flat edge
//!   list; the rows searched together in vector lanes to a fixed point, `cell/lanes.rs`, or
//!   one Dijkstra per portal when its routes may pass 16 bits). Unreachable pairs hold a
//!   sentinel, so a cell's components need no separate list.
//! - **Built from the walk graph only** ([`NavGraph::for_each_move`],
//!   [`NavGraph::for_each_incoming`], [`NavGraph::node`], [`NavGraph::feet`],
//!   [`NavGraph::nodes`]): no second statement of the walking rules. Costs are priced at build
//!   time for one [`MoveCosts`] (a [`Router`](crate::Router) routes with one), which the
//!   queries then use.
//!
//! ## Queries are exact
//!
//! A query from `s` to `t` (see [`HierSearch::find_path`]):
//!
//! 1. searches `s`'s cell from `s` (Dijkstra inside the cell) for its cost to each portal of
//!    that cell (and to `t` when both share a cell), and `t`'s cell backwards from `t` over
//!    incoming moves for each portal's cost to `t`;
//! 2. runs A* over the overlay with the same heuristic as every A* here (a consistent one
//!    stays consistent: overlay edges are routes of moves). Each portal has two states:
//!    *entered* (reached by a move across a border: the next step is a table row of its
//!    cell, itself included at cost 0) and *leaving* (reached through the table or from
//!    `s`: the next step is one of its moves across the border). Any route is a sequence of
//!    in-cell legs and border moves, and each in-cell leg between portals costs at least the
//!    table's entry, so the overlay's shortest route costs exactly the walk graph's;
//! 3. refines each table step into walk moves by A* inside its cell (its cost equals the
//!    table's entry), and the first and last legs from the searches of step 1.
//!
//! Status, budgets and partial routes follow [`GraphSearch`](crate::graph::GraphSearch):
//! found (optimal under an admissible heuristic), unreachable (the overlay exhausted: exact,
//! since every route crosses it), or partial when a node or time budget runs out (the route
//! to the portal closest to the goal by the heuristic that the search expanded). Expansions
//! count the overlay's states and the nodes the first and last legs expanded; the legs (one
//! cell each, a few hundred nodes) are searched whatever the budget, so a search may expand
//! a little more than a tiny node budget before it stops.
//!
//! ## Local updates
//!
//! [`Hierarchy::update`] takes the walk graph's [`GraphUpdate`] and derives again only the
//! cells whose portals or in-cell moves can have changed: the cells of added and changed
//! nodes, the cells across the border from such nodes and from removed ones in border columns
//! (their moves across it may have appeared or vanished, which changes the other side's
//! portals: a node whose only move across entered it from an unloaded column is listed by no
//! change), and the cells of removed portals. The property test in `tests/hier.rs` checks
//! after random block changes that the updated hierarchy equals a fresh build, edge for
//! edge; the fuzz targets `walk_long` and `walk_columns` after block changes and column loads
//! and unloads.
//!
//! ## What it costs, and why it is not faster than A* (measured)
//!
//! `cargo run --release --example long` (2048 x 128 x 2048 terrain, seed 1337, 5.38 M feet
//! positions, 200 connected pairs 500 to 1 843 blocks apart; the machine was shared, the
//! process got 31% of a core, so absolute times are inflated, ratios less so):
//!
//! | | graph A* | hierarchy |
//! |---|---|---|
//! | mean / p99 per query | 91.6 / 464 ms | 673 / 3 276 ms |
//! | expansions per query | 360 875 | 164 992 (overlay states and both legs) |
//! | cost ratio | 1 | 1.0000 (exact, every answer equal) |
//! | build | compile 3.56 s | 14.96 s (4.2x the compile) |
//! | memory | 92.7 MB | 216 MB (233% on top of the graph; 16 384 cells, 69.3 portals each; 381 MB with 32-bit tables) |
//! | per block edit, p50 / p99 | 8 / 35 us | 627 us / 10.4 ms |
//!
//! Relabelling the components after the edits took 3.7 s of wall clock at 14% of a core
//! (`long --pairs 20 --weight 1`, 1.14 M portals): it reads every portal's moves, so it is
//! done on demand ([`Hierarchy::refresh_components`]), not per edit. Instructions (callgrind,
//! `long --quick --weight 1`): graph A* 1.37 G, hierarchy 3.65 G.
//!
//! What limits it: on this hilly terrain the octile heuristic underestimates by far, so any
//! A* expands everything with `f` below the optimum, a wide region around the route; the
//! overlay search expands the same region. Per column of that region A* relaxes about
//! 8 moves of 1.3 nodes, while the overlay keeps about `4 x 16 = 64` portals per 256 columns,
//! each entered state relaxing a 64-entry table row: about 16 relaxations per column, twice
//! A*'s, through a slower open set. A weight of 1.05 changed little (5% fewer expansions):
//! the region is set by the weak heuristic, not by ties. The table's memory grows the same
//! way: `(4 s)^2` entries per `s^2` columns, 16 per column whatever the cell size `s`, so a
//! second level of exact tables would not shrink it either. Waypoints (an overlay search
//! over the portals at fixed positions along each side only, a third of them) were tried:
//! in one `long --quick` run (wall clock, busy machine) 17.9 ms mean against the full
//! overlay's 44.2 ms and A*'s 9.4 ms, with costs 14% above optimal on average and 60% at
//! worst, so they were left out.
//!
//! What stays useful: the structure is exact, local and small per edit, and its components
//! answer "unreachable" without a search (see [`HierSearch::reachability`]). Speed on long
//! routes needs a stronger heuristic (landmarks over the portals, whose distances this
//! overlay gives exactly) or an abstraction that gives up exactness (few waypoints per cell
//! with a corridor search to repair the route), measured against this exact baseline.
//!
//! ## The inexact abstraction (HPA*)
//!
//! [`Abstraction`] and [`AbstractSearch`] give up exactness for speed, after Botea, Mueller
//! and Schaeffer's HPA* (2004): the same chunk-column cells, far fewer portals, and a
//! landmark heuristic over them.
//!
//! - **Entrances**: per pair of neighbouring cells and per direction, the moves from one
//!   into the other, grouped into runs along the border whose sources are joined both ways
//!   by a move along the border, and whose targets are too (one way only, as down a drop,
//!   would let a portal stand for crossings it cannot reach: with it, 2 of 20 connected
//!   pairs found no abstract route). Each entrance keeps one crossing per 4 of its
//!   crossings (rounded up), at the middle of its share; the ends of those crossings are the
//!   cell's portals (29 per cell at 2048, against 67 border nodes with a crossing). One
//!   pair per entrance, or one at each end of long ones (the paper's rule), left routes
//!   2.2% above optimal on average after smoothing.
//! - **In-cell edges**: the exact cost inside the cell between every two portals, priced for
//!   one [`MoveCosts`], a byte each above a floor from the two portals' feet (`hpa/bytes.rs`).
//! - **Landmarks (ALT)**: the abstract route costs from 20 portals to every portal and from
//!   every portal to them, two Dijkstras each at build, a byte per way on a scale per cell,
//!   rounded so every bound stays a lower bound; about half the portals keep none and are
//!   bounded from a partner across the border, `h(a) - c(a -> b)` (`hpa/alt.rs`). The landmarks are
//!   the portals nearest to points spread evenly along the border of the portals' area, among
//!   those of the largest strongly connected part a probe finds (from the middle, both ways):
//!   at 1024 the portals nearest the border points sat on islands, leaving 72% of the
//!   distances unknown (33% now). The abstract search estimates with the larger of the octile
//!   bound, `d(L, goal) - d(L, v)` and `d(v, L) - d(goal, L)` over all 40 ways (walking is far
//!   from symmetric: a block climbed costs 5 times a block dropped): per query one constant per
//!   way, per portal a maximum of saturating 16-bit differences. 24 landmarks expanded 4.5%
//!   fewer portals for 7.6 MB more at 2048, 16 expanded 9.6% more; values per cell instead of
//!   per portal expanded 4.7 times as many (`hpa/landmarks.rs`). Updates carry the values
//!   (new portals valued from their edges) and keep them while Bellman's condition holds on
//!   every new or cheaper edge, else drop them until [`Abstraction::refresh_landmarks`]
//!   (`hpa/edits.rs`: 178 of 200 edits of `long --size 1024` keep them).
//! - **Queries** ([`AbstractSearch::find_path`]): routes whose ends are at most one cell
//!   apart (either axis, [`DIRECT_CELLS`]) go straight to A* over the walk graph; those at
//!   most [`PROBE_BLOCKS`] apart try it first with a budget of 16 nodes per block, which
//!   answers most on real worlds (`hpa/search/direct.rs`). Others search the start's cell
//!   forwards and the goal's backwards (Dijkstra inside each), run A* over the portals
//!   (dense records stamped per query, each portal's estimate computed once per query, the
//!   search core's radix heap as the open set), then refine and smooth
//!   the abstract route with windows two cells wide: A* from where the kept route stands
//!   to where the abstract route leaves the next cell, over the moves of those cells,
//!   keeping its part up to 65% of the way through the second cell, where the next window
//!   starts (a short route: one window over its cells and its ends' box of chunks, at most
//!   9). Every border lies inside a window, no junction on a portal: crossings are free.
//!   When the abstraction finds no route, A* over the walk graph decides: "unreachable" is
//!   exact (an abstract search plus a full A*). Budgets, partial routes: as the exact search.
//! - **Bound**: HPA* has none a priori (a route may have to leave the corridor of cells the
//!   abstract route visits). It is measured, and enforced on fixed worlds by `tests/hier_hpa.rs`:
//!   on 60 routes of at least 64 blocks over hills each cost is at most 5% above the optimum
//!   and the mean at most 1% (measured 4.6% and 0.46%); that test fails with portals at one
//!   end of each entrance. Random worlds: legal, reachability exact, 1% mean (`reach_live`).
//! - **Updates** ([`Abstraction::update`]): the exits of the cells with a changed node in a
//!   border column, or across the border from one, are found again (`hpa/exits.rs`), then the
//!   tables of the cells of nodes whose moves out changed and of every neighbour whose
//!   portals changed are derived again (Dijkstra over Dial's buckets); a cell whose exits
//!   came out the same leaves its neighbours alone, and a cell whose portals stayed searches
//!   again only the rows of portals that reach a changed node (one search backwards from the
//!   changes finds them). Per edit, 15% fewer instructions than deriving every dirty cell's
//!   exits and rows (`long --size 1024 --edits 200`), 28% fewer on the 1.21.11 save.
//!   `tests/hier_hpa.rs` checks the result equals a fresh build, edge for edge, after random
//!   block changes and after chunk columns load and unload.
//!
//! Measured (`HIER_ENGINE=graph,hpa cargo run --release --example long --
//! --refresh-landmarks`: 2048 x 128 x 2048, seed 1337, 200 connected pairs 500 to 1 843 blocks
//! apart; a quiet 2-core machine, load about 1; the exact hierarchy's row is from its own
//! run; one thread: `--no-default-features --features terrain,anvil`):
//!
//! | | graph A* | exact hierarchy | abstraction |
//! |---|---|---|---|
//! | mean / p99 per query | 34.6-35.2 / 118-121 ms | 673 / 3 276 ms | 1.80-1.84 / 4.6-4.8 ms (19.1x-19.4x; 1.82-1.88 ms with 32-byte search records, 1.94-1.99 ms when the first timed query still sized the buffers, 2.10-2.13 ms before settling portals, each interleaved with the one after) |
//! | expansions per query | 360 875 | 164 992 | 17 311 (9 175 before portals reached through a table were settled on the spot, `search.rs`: more, each far cheaper) |
//! | cost ratio mean / worst | 1 | 1 | 1.0083 / 1.0159 |
//! | build | compile 2.48-2.59 s | 4.2x the compile | 2.17-2.30 s, 0.84x-0.89x (one thread: 1.26x-1.56x) |
//! | memory on top of the graph (78.1 MB) | | 233% | 38.4 MB, 49.2% |
//! | block edit p50 / p99 | 11 / 41 us | 627 us / 10.4 ms | 144-148 / 1 390-1 650 us, landmarks current (234-238 before the rows in lanes) |
//!
//! Again on 2026-11-28 (another machine of the kind, quiet, three runs): graph A* 41.6-42.5 / 144-148
//! ms, the abstraction 2.34 / 6.6-6.9 ms (17.8x-18.2x), build 2.61-2.68 s (compile 3.36-4.20 s),
//! edit p50 / p99 12-15 / 42-48 us and 159-199 / 1 261-1 894 us (exits across a border now found too).
//!
//! Both searches' buffers are sized before the timed queries (`reserve_for`; unsized, the first
//! query took 20-21 ms writing its records, 1.8-1.9 ms now that they are zeroed pages). Edits are
//! timed with the landmarks current (the 24 of 200 that dropped them were followed by an untimed
//! `refresh_landmarks`). Weight 1.05: as unweighted. Windows and end cells run on the graph's A*
//! loop kept to their chunks ([`GraphSearch::search_within`](crate::graph::GraphSearch)).
//!
//! Instructions of the timed queries alone (`HIER_ENGINE=graph,hpa valgrind --tool=callgrind
//! --toggle-collect='*timed_graph*' --toggle-collect='*timed_hpa*' target/release/examples/long
//! --pairs 20 --edits 0 --weight 1`: 2048, 20 pairs): graph A* 170.0 M per query, the abstraction
//! 7.70 M (22.1x fewer; 7.44 M with 32-byte search records, 9.07 M before its buffers were sized
//! ahead, when `HIER_ENGINE=hpa` alone gave 7.60 M, 7.78 M before a byte per portal gave its first
//! exit, `hpa/blocks.rs`). Build at 1024, one thread (`--size 1024 --pairs 1`,
//! `--toggle-collect='*Abstraction*build*'`): 4.62 G instructions (the compile 7.56 G,
//! `'*NavGraph*compile*'`; 5.49 G before the rows in vector lanes, 9.29 G before the landmark
//! lists), of them the rows 1.22 G (2.24 G with a Dijkstra per row), the exits 0.42 G, the
//! numbering 0.69 G, the landmark Dijkstras 0.98 G. Per block edit, landmarks current (`long --size
//! 1024 --edits 200 --refresh-landmarks`, `'*Abstraction*update*'`): 200 edits 295.9 M (510 M in
//! session 11's start, 346.9 M before the lanes), the median edit 0.789 M (1.062 M with a Dijkstra
//! per row: 20 rows of about 31.7 k each; the lanes search all the rows a cell needs in one pass of
//! about 2.5 visits per node, `cell/lanes.rs`).
//!
//! What limits the speed-up:
//! - The abstract search still explores more than the route: at 1024 about 1 740 portals
//!   per query for routes through about 113, as on hills the octile and landmark bounds fall
//!   short of the true cost; relaxing their table rows costs about 2.06 M instructions per
//!   query at 2048 (each row about 29 entries, or its block's).
//! - A second level of bigger cells would not cut that work as it stands: portals grow
//!   with a cell's perimeter, so a cell of 4 x 4 chunks has about 4 times the portals and
//!   its rows relax `(4 p)^2 / 16 = p^2` entries per chunk of area explored, as many as
//!   now. It pays only with sparser portals on the big cells' borders (which the cost
//!   bound has little room for: one portal per entrance already left routes 2.2% above
//!   optimal) or with a bound that shrinks the area explored.
//! - Contracting each cell's table (dropping entries that two others imply) would drop
//!   52% of them (counted at 512), but the search then has to relax the row of a portal
//!   reached through its table too, which it now skips: about as many relaxations.
//! - The windows: 2.62 M of the query's instructions at 2048; 83% of their expansions have
//!   `f` below the window's cost, so breaking ties differently would save little.
//! - Memory (49.2% at 2048, 38.4 MB; 90% with 16-bit landmarks and tables): landmarks 14.1 MB
//!   (bytes, half the portals derived from a partner), tables 7.5 MB (bytes above a floor),
//!   exits 7.1 MB, cells 2.8 MB, portals, feet, slots 1.9 MB each. Query instructions at 1024:
//!   98.96 M for 20 (9 245 expansions each, 3 573 of them popped; see `search.rs`).
//!
//! For a router: build an [`Abstraction`] with the router's [`MoveCosts`], pass it every
//! [`GraphUpdate`], call [`Abstraction::refresh_landmarks`] when edits settle, and answer
//! every query through one [`AbstractSearch`] per thread: it sends routes within
//! [`DIRECT_CELLS`] to graph A* itself. It answers faster than graph A* on long routes
//! (2 cells apart and more) when the landmarks are current, and slower on unreachable
//! goals (an abstract search before the A*).

mod cell;
mod hpa;
mod query;

use ahash::{AHashMap, AHashSet};
use glam::IVec3;

use crate::error::{Error, Result};
use crate::graph::{GraphUpdate, NavGraph, NodeId};
use crate::moves::agent::MoveCosts;

use cell::{Before, CELL_SIDE, Chunk, DeriveScratch, UNREACHED};
use cell::{across, chunk_of, derive, is_portal, on_border};

pub use hpa::{AbstractSearch, Abstraction, DIRECT_CELLS, PROBE_BLOCKS};
pub use query::{HierSearch, Reach};

/// One cell: a chunk column's portals and their table.
#[derive(Debug, Clone)]
struct Cell {
    chunk: Chunk,
    /// The lowest and highest feet y any node of the cell has had: where to look for
    /// portals when the cell is derived again.
    y_low: i32,
    y_high: i32,
    /// The first of the overlay slots the cell owns, and how many it owns (at least its
    /// portals).
    base: u32,
    capacity: u32,
    /// The portals, ordered by local x, local z, then feet y.
    portals: Vec<NodeId>,
    /// `table[i * n + j]`, see [`cell::Derived`].
    table: Table,
    /// Per portal, the smallest index of a portal in its weakly connected component inside
    /// the cell (joined when the table has a route either way).
    rep: Vec<u32>,
}

impl Cell {
    /// The in-cell cost from portal `from` to portal `to`, `None` when there is no route
    /// inside the cell.
    #[inline]
    fn cost(&self, from: usize, to: usize) -> Option<u32> {
        self.table.get(from * self.portals.len() + to)
    }
}

/// A cell's table: 16-bit costs when every cost inside the cell fits (the common case: a
/// route inside one chunk column rarely costs 65 535 at the default costs), else 32-bit.
/// Half the bytes for the structure's largest part.
#[derive(Debug, Clone)]
enum Table {
    /// Costs below [`u16::MAX`], which marks an unreachable pair.
    Narrow(Vec<u16>),
    /// Costs below [`UNREACHED`], which marks an unreachable pair.
    Wide(Vec<u32>),
}

impl Table {
    /// The narrowest table holding `costs` ([`UNREACHED`] for no route).
    fn new(costs: Vec<u32>) -> Self {
        let narrow = u32::from(u16::MAX);
        if costs.iter().all(|&cost| cost == UNREACHED || cost < narrow) {
            Self::Narrow(
                costs
                    .iter()
                    .map(|&cost| u16::try_from(cost).unwrap_or(u16::MAX))
                    .collect(),
            )
        } else {
            Self::Wide(costs)
        }
    }

    /// Entry `k`, `None` for an unreachable pair.
    #[inline]
    fn get(&self, k: usize) -> Option<u32> {
        match self {
            Self::Narrow(costs) => (costs[k] != u16::MAX).then_some(u32::from(costs[k])),
            Self::Wide(costs) => (costs[k] != UNREACHED).then_some(costs[k]),
        }
    }

    /// Visits the reachable entries in `entries` (a row or a block's row), `(place, cost)`:
    /// one match on the width per row rather than per entry, for the abstract search's loop.
    #[inline]
    fn for_each_in(&self, entries: std::ops::Range<usize>, mut visit: impl FnMut(usize, u32)) {
        match self {
            Self::Narrow(costs) => {
                for (column, &cost) in costs[entries].iter().enumerate() {
                    if cost != u16::MAX {
                        visit(column, u32::from(cost));
                    }
                }
            }
            Self::Wide(costs) => {
                for (column, &cost) in costs[entries].iter().enumerate() {
                    if cost != UNREACHED {
                        visit(column, cost);
                    }
                }
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Self::Narrow(costs) => costs.capacity() * 2,
            Self::Wide(costs) => costs.capacity() * 4,
        }
    }
}

/// Where a portal sits: its cell and its index among the cell's portals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PortalRef {
    cell: u32,
    local: u32,
}

/// The hierarchy of cells over one [`NavGraph`], for one [`MoveCosts`]. See the
/// [module docs](self).
///
/// Queries go through a [`HierSearch`] (reusable search state; the hierarchy itself is only
/// read, so one hierarchy serves many searches, on many threads when shared).
///
/// Its `Debug` output is a summary (counts, bytes, version), not its tables.
#[derive(Clone)]
pub struct Hierarchy {
    costs: MoveCosts,
    /// The world version of the graph the hierarchy describes, when its world has one.
    version: Option<u64>,
    cells: Vec<Cell>,
    by_chunk: AHashMap<Chunk, u32>,
    portal_of: AHashMap<NodeId, PortalRef>,
    /// The cell owning each overlay slot.
    slot_cell: Vec<u32>,
    /// Slots owned by cells' portals (the rest of `slot_cell` is room left by cells that
    /// grew): when they fall below half, the slots are laid out again.
    used_slots: usize,
    components: components::Components,
}

mod components;

impl std::fmt::Debug for Hierarchy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hierarchy")
            .field("cells", &self.cells.len())
            .field("portals", &self.portal_of.len())
            .field("memory_bytes", &self.memory_bytes())
            .field("version", &self.version)
            .field("components_current", &self.components_current())
            .finish_non_exhaustive()
    }
}

impl Hierarchy {
    /// Builds the hierarchy of `graph` with moves priced at `costs`: finds every cell's
    /// portals and derives its table.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] for costs out of range; [`Error::GraphBroken`] /
    /// [`Error::StaleGraph`] as [`NavGraph::check_current`]; [`Error::GraphTooLarge`] when a
    /// route inside one cell costs more than 32 bits hold.
    pub fn build(graph: &NavGraph, costs: &MoveCosts) -> Result<Self> {
        costs.validate()?;
        graph.check_current()?;
        let mut hierarchy = Self {
            costs: *costs,
            version: graph.world_version(),
            cells: Vec::new(),
            by_chunk: AHashMap::new(),
            portal_of: AHashMap::new(),
            slot_cell: Vec::new(),
            used_slots: 0,
            components: components::Components::default(),
        };
        let mut candidates: Vec<Vec<NodeId>> = Vec::new();
        for id in graph.nodes() {
            let feet = graph.feet(id);
            let cell = hierarchy.cell_for(feet);
            if candidates.len() <= cell {
                candidates.resize_with(cell + 1, Vec::new);
            }
            let chunk = hierarchy.cells[cell].chunk;
            if on_border(feet) && is_portal(graph, costs, id, chunk) {
                candidates[cell].push(id);
            }
        }
        let mut scratch = DeriveScratch::default();
        for (cell, mut portals) in candidates.into_iter().enumerate() {
            cell::sort_portals(graph, &mut portals);
            let chunk = hierarchy.cells[cell].chunk;
            let derived = derive(graph, costs, chunk, portals, None, &mut scratch)?;
            hierarchy.install(cell, derived);
        }
        hierarchy.refresh_components(graph);
        Ok(hierarchy)
    }

    /// The costs the hierarchy prices moves at.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// The index of the cell of `feet`, made (empty) if there is none yet, its height range
    /// widened to `feet`.
    fn cell_for(&mut self, feet: IVec3) -> usize {
        let chunk = chunk_of(feet);
        let cells = &mut self.cells;
        let index = *self.by_chunk.entry(chunk).or_insert_with(|| {
            cells.push(Cell {
                chunk,
                y_low: feet.y,
                y_high: feet.y,
                base: 0,
                capacity: 0,
                portals: Vec::new(),
                table: Table::Narrow(Vec::new()),
                rep: Vec::new(),
            });
            (cells.len() - 1) as u32
        }) as usize;
        let cell = &mut self.cells[index];
        cell.y_low = cell.y_low.min(feet.y);
        cell.y_high = cell.y_high.max(feet.y);
        index
    }

    /// Gives cell `index` its derived portals and table, with overlay slots for them.
    fn install(&mut self, index: usize, derived: cell::Derived) {
        let count = derived.portals.len() as u32;
        let cell = &mut self.cells[index];
        for &portal in &cell.portals {
            self.portal_of.remove(&portal);
        }
        self.used_slots -= cell.portals.len();
        self.used_slots += count as usize;
        if count > cell.capacity {
            // Room to grow by a quarter before the next move.
            let capacity = count + count / 4;
            cell.base = self.slot_cell.len() as u32;
            cell.capacity = capacity;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, capacity as usize));
        }
        for (local, &portal) in derived.portals.iter().enumerate() {
            self.portal_of.insert(
                portal,
                PortalRef {
                    cell: index as u32,
                    local: local as u32,
                },
            );
        }
        let n = derived.portals.len();
        let mut local = components::UnionFind::default();
        local.reset(n);
        for i in 0..n {
            for j in i + 1..n {
                if derived.table[i * n + j] != UNREACHED || derived.table[j * n + i] != UNREACHED {
                    local.union(i as u32, j as u32);
                }
            }
        }
        cell.rep = (0..n as u32).map(|i| local.find(i)).collect();
        cell.portals = derived.portals;
        cell.table = Table::new(derived.table);
        self.components.mark_stale();
    }

    /// Labels the overlay's components again (a union-find over the portals, joined inside
    /// cells and across borders), after updates left them stale: until then
    /// [`HierSearch::reachability`] answers [`Reach::Maybe`] for every pair. Reads the
    /// portals and their moves across borders, not the whole walk graph.
    pub fn refresh_components(&mut self, graph: &NavGraph) {
        if !self.components.is_stale() && self.components.labels.len() == self.slot_cell.len() {
            return;
        }
        let mut union_find = components::UnionFind::default();
        union_find.reset(self.slot_cell.len());
        for (index, cell) in self.cells.iter().enumerate() {
            for (local, &portal) in cell.portals.iter().enumerate() {
                let slot = cell.base + local as u32;
                union_find.union(slot, cell.base + cell.rep[local]);
                graph.for_each_move(portal, &self.costs, |step| {
                    if let Some(other) = self.portal_of.get(&step.node)
                        && other.cell != index as u32
                    {
                        let target = &self.cells[other.cell as usize];
                        union_find.union(slot, target.base + other.local);
                    }
                });
            }
        }
        self.components.set(&mut union_find, self.slot_cell.len());
    }

    /// Whether the component labels describe the overlay (see
    /// [`Hierarchy::refresh_components`]).
    #[must_use]
    pub fn components_current(&self) -> bool {
        !self.components.is_stale()
    }

    /// Lays the overlay slots out again, each cell's right after the previous one's, when
    /// cells that grew have left more than half of them unused.
    fn compact_slots(&mut self) {
        if self.used_slots * 2 >= self.slot_cell.len() {
            return;
        }
        self.slot_cell.clear();
        for (index, cell) in self.cells.iter_mut().enumerate() {
            let count = cell.portals.len() as u32;
            cell.base = self.slot_cell.len() as u32;
            cell.capacity = count;
            self.slot_cell
                .extend(std::iter::repeat_n(index as u32, count as usize));
        }
        self.slot_cell.shrink_to_fit();
    }

    /// Follows the walk graph after [`NavGraph::update`] or [`NavGraph::apply_changes`]
    /// returned `changes`: derives again only the cells those changes can affect (see
    /// [local updates](self#local-updates)). `graph` is the updated graph.
    ///
    /// Pass every update's changes, in order: a hierarchy that missed one describes a graph
    /// that no longer exists.
    ///
    /// `graph` may trail its world (reports applied after the world changed again); queries
    /// wait until they agree.
    ///
    /// # Errors
    /// [`Error::GraphBroken`]; [`Error::GraphTooLarge`] as [`Hierarchy::build`].
    pub fn update(&mut self, graph: &NavGraph, changes: &GraphUpdate) -> Result<()> {
        graph.check_intact()?;
        let mut dirty: AHashSet<Chunk> = AHashSet::new();
        for &id in changes.added.iter().chain(&changes.changed) {
            if !graph.is_live(id) {
                continue;
            }
            let feet = graph.feet(id);
            self.cell_for(feet);
            dirty.insert(chunk_of(feet));
            dirty.extend(across(feet));
        }
        for (id, &feet) in changes.removed.iter().zip(&changes.removed_feet) {
            if let Some(portal) = self.portal_of.get(id) {
                dirty.insert(self.cells[portal.cell as usize].chunk);
            }
            // A move from it into a neighbour made a portal there, which no change lists.
            dirty.extend(across(feet));
        }
        let mut dirty: Vec<Chunk> = dirty.into_iter().collect();
        dirty.sort_unstable();
        let mut scratch = DeriveScratch::default();
        for chunk in dirty {
            // A chunk with no cell never had a node: nothing to derive.
            let Some(&index) = self.by_chunk.get(&chunk) else {
                continue;
            };
            let portals = self.find_portals(graph, index as usize);
            let cell = &self.cells[index as usize];
            let cost = |from, to| cell.table.get(from * cell.portals.len() + to);
            let before = Some(Before::new(&cell.portals, &cost, &changes.changed));
            let derived = derive(graph, &self.costs, chunk, portals, before, &mut scratch)?;
            self.install(index as usize, derived);
        }
        self.compact_slots();
        self.version = graph.world_version();
        Ok(())
    }

    /// The portals of cell `index` in `graph`, in canonical order, found by looking at every
    /// feet height the cell has had in its border columns.
    fn find_portals(&self, graph: &NavGraph, index: usize) -> Vec<NodeId> {
        let cell = &self.cells[index];
        let origin = IVec3::new(cell.chunk[0] * CELL_SIDE, 0, cell.chunk[1] * CELL_SIDE);
        let mut portals = Vec::new();
        for x in 0..CELL_SIDE {
            for z in 0..CELL_SIDE {
                if !on_border(IVec3::new(x, 0, z)) {
                    continue;
                }
                for y in cell.y_low..=cell.y_high {
                    let feet = origin + IVec3::new(x, y, z);
                    if let Some(id) = graph.node(feet)
                        && is_portal(graph, &self.costs, id, cell.chunk)
                    {
                        portals.push(id);
                    }
                }
            }
        }
        portals
    }

    /// [`Error::StaleGraph`] when `graph` describes another version of its world than the
    /// hierarchy was built or last updated for.
    fn check_graph(&self, graph: &NavGraph) -> Result<()> {
        graph.check_current()?;
        match (self.version, graph.world_version()) {
            (Some(built), Some(now)) if built != now => Err(Error::StaleGraph { built, now }),
            _ => Ok(()),
        }
    }

    /// The number of portals over all cells.
    #[must_use]
    pub fn portal_count(&self) -> usize {
        self.portal_of.len()
    }

    /// The number of cells (chunk columns that have had a node).
    #[must_use]
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Every overlay edge inside a cell, by feet positions: `(from, to, cost)` for each pair
    /// of portals of one cell with a route inside it (a portal to itself included, at 0).
    /// For inspection and tests: two hierarchies of the same graph list the same edges.
    pub fn cell_edges<'a>(
        &'a self,
        graph: &'a NavGraph,
    ) -> impl Iterator<Item = (IVec3, IVec3, u32)> + 'a {
        self.cells.iter().flat_map(move |cell| {
            let n = cell.portals.len();
            (0..n * n).filter_map(move |k| {
                let (i, j) = (k / n, k % n);
                cell.cost(i, j).map(|cost| {
                    (
                        graph.feet(cell.portals[i]),
                        graph.feet(cell.portals[j]),
                        cost,
                    )
                })
            })
        })
    }

    /// The memory the hierarchy holds, in bytes (its arrays' and maps' capacities; a hash map
    /// entry counted at its key and value plus one control byte).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let cells: usize = self
            .cells
            .iter()
            .map(|cell| {
                std::mem::size_of::<Cell>()
                    + (cell.portals.capacity() + cell.rep.capacity()) * 4
                    + cell.table.memory_bytes()
            })
            .sum();
        let entry = |key: usize, value: usize| key + value + 1;
        cells
            + self.cells.capacity().saturating_sub(self.cells.len()) * std::mem::size_of::<Cell>()
            + self.by_chunk.capacity() * entry(8, 4)
            + self.portal_of.capacity() * entry(4, 8)
            + self.slot_cell.capacity() * 4
            + self.components.memory_bytes()
    }
}
