//! [`Router`]: the one type a user creates to find routes.
//!
//! A router is built from an [`Agent`] (or a mob profile) and [`MoveCosts`]; it answers one
//! query ([`Router::route`], [`Router::route_to`]), many ([`Router::route_many`], in parallel
//! with the `rayon` feature), any [`Goal`], under the budgets of [`SearchOptions`], on any
//! [`VoxelWorld`]. It keeps whatever makes the next query fast (scratch memory per thread,
//! and after [`Router::prepare`] a compiled walk graph and a reachability index) and picks the
//! engine itself ([`Router::engine`] tells which one a query would meet):
//!
//! - **on the fly**: A* reading the world through the walking, flying or swimming rules. Works
//!   on every world, bounded or not, and is the answer whenever nothing prepared describes the
//!   world as it is now;
//! - **graph**: A* over the walk graph compiled by [`Router::prepare`] (walkers on bounded
//!   worlds), the same costs with fewer reads of the world;
//! - **long routes**: a walker's route whose start and goal lie more than a chunk apart goes
//!   through an abstraction of that graph ([`crate::hier`], HPA* style: portals on chunk
//!   borders, exact costs between them inside each chunk, landmarks to guide the search),
//!   built by [`Router::prepare`] too and kept current by [`Router::apply_changes`]. Near the
//!   optimum, not always at it (see [`Router::with_long_routes`] for the figures, and to turn
//!   it off for exact routes); ends at most [`PROBE_BLOCKS`](crate::hier::PROBE_BLOCKS) apart
//!   try A* over the graph first, with a small budget;
//! - **index**: a goal the reachability index proves unreachable is answered with no search;
//! - **jump points**: fliers and swimmers going to one block are answered by jump point search
//!   where it is exact (the flier A*'s costs; see [`Engine::JumpPoints`]), with its face jumps
//!   precomputed by [`Router::prepare`] on a world that has not changed since.
//!
//! Which world a prepared structure describes is the router's business, not the caller's: it
//! asks the world for its [`Revision`] (through [`VoxelWorld::watch`]) and trusts what it prepared
//! only for that world at that version. A world that cannot tell (a `VoxelWorld` of your own
//! whose `watch` returns `None`) is searched on the fly on every query: always right, only slower.
//!
//! A router never rebuilds anything behind the caller's back: a world changed without
//! [`Router::apply_changes`] is searched on the fly (no stall of seconds on a server tick)
//! until the changes are applied or [`Router::prepare`] runs again.
//!
//! ## Threads
//!
//! Every query method takes `&self`: a `Router` is `Send + Sync`, so one router can answer
//! queries from many threads at once while the world is shared read-only. Each thread takes
//! its own search state from the router's pool and gives it back, so a warm router allocates
//! nothing per query. [`Router::prepare`] and [`Router::apply_changes`] take `&mut self`.
//!
//! ```
//! use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, Router, SearchStatus};
//!
//! let mut world = ChunkedWorld::with_size(IVec3::new(16, 8, 16))?;
//! world.fill(IVec3::new(0, 0, 0), IVec3::new(15, 0, 15), Block::Solid)?;
//! world.fill(IVec3::new(8, 1, 0), IVec3::new(15, 1, 15), Block::Solid)?; // a step
//!
//! let mut router = Router::new(Agent::default(), MoveCosts::default())?;
//! let route = router.route(&world, IVec3::new(1, 1, 1), IVec3::new(12, 2, 1))?;
//! assert_eq!(route.status, SearchStatus::Found);
//!
//! // Compile the walk graph and the reachability index once; later queries use them.
//! router.prepare(&world)?;
//! assert_eq!(router.route(&world, IVec3::new(1, 1, 1), IVec3::new(12, 2, 1))?.cost, route.cost);
//!
//! // A change applied with `apply_changes` keeps them current, locally.
//! world.track_changes(true);
//! world.set(IVec3::new(4, 1, 1), Block::Solid)?;
//! let changes = world.take_changes();
//! router.apply_changes(&world, &changes)?;
//! assert_eq!(router.engine(&world), voxnav::Engine::Graph);
//! # Ok::<(), voxnav::Error>(())
//! ```

use glam::IVec3;

use crate::batch::{BatchRouter, RouteQuery};
use crate::error::Result;
use crate::moves::agent::{Agent, MoveCosts, Movement};
use crate::reach::IndexedRouter;
use crate::search::{BlockGoal, Goal, SearchOptions, SearchResult};
use crate::world::chunked::Changes;
use crate::world::{Revision, VersionedWorld, VoxelWorld, WorldId};

/// The front door: routes for one agent at one set of costs, on any world. See the
/// [module docs](self).
#[derive(Debug)]
pub struct Router {
    batch: BatchRouter,
    costs: MoveCosts,
    /// The world [`Router::prepare`] built the graph and index from.
    prepared: Option<WorldId>,
}

/// Which engine answers a query, as [`Router::engine`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// A* reading the world through the movement rules (the agent's walking, flying or
    /// swimming rules).
    OnTheFly,
    /// A* over the walk graph compiled by [`Router::prepare`], with the reachability index in
    /// front of it, and for routes longer than a chunk the graph's abstraction (see
    /// [`Router::with_long_routes`]).
    Graph,
    /// Jump point search ([`JumpSearch`](crate::engine::JumpSearch)) for fliers and swimmers:
    /// the flier A*'s costs, exactly, in less time (5.3x on Moving AI's `Simple` map, 2.3x on
    /// a large cluttered world; 20x and 3.8x to 5x, depending on the pairs drawn, with the
    /// jumps [`Router::prepare`] precomputes, which [`Router::apply_changes`] keeps current:
    /// `cargo bench --bench jps3d`, a quiet 2-core machine, 2026-11-29). It answers
    /// single-block goals ([`Router::route`], or a goal whose [`Goal::block_target`] is set)
    /// under the default heuristic; other goals, and weighted heuristics, meet
    /// [`Engine::OnTheFly`].
    JumpPoints,
}

impl Router {
    /// A router for `agent` moving at `costs`, with default [`SearchOptions`] and nothing
    /// prepared.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`](crate::Error::InvalidSetting) when the agent or the costs
    /// are out of range (see [`Agent::validate`] and [`MoveCosts::validate`]).
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        let mut batch = BatchRouter::new(agent, costs)?;
        batch.index_slot_mut().set_long_routes(Some(costs));
        Ok(Self {
            batch,
            costs,
            prepared: None,
        })
    }

    /// Sets the options [`Router::route`] and [`Router::route_many`] use (the budgets and the
    /// heuristic). Defaults to [`SearchOptions::default`]: no budget, so an unbounded world
    /// needs one.
    #[must_use]
    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.batch = self.batch.with_options(options);
        self
    }

    /// Sends long routes (start and goal more than a chunk apart) through an abstraction of
    /// the walk graph from the next [`Router::prepare`] on (`true`, the default), or answers
    /// them by A* over the graph (`false`: exact, slower). The abstraction ([`crate::hier`],
    /// HPA* style: portals on chunk borders, exact costs between them inside each chunk,
    /// landmarks for the search, the route refined and smoothed by A* two chunks wide)
    /// answers faster than A* over the graph from about two chunks on, with routes near, not
    /// always at, the optimum: on 200 routes of 500 to 1 843 blocks over the built-in terrain
    /// at 2048 x 2048, 1.8 ms against 35 ms per route (19x), 0.83% above the optimum on
    /// average and 1.59% at worst (`HIER_ENGINE=graph,hpa cargo run --release --example
    /// long`, a quiet 2-core machine); the tests hold it to 1% above on average (5% per route
    /// on a fixed hilly world), but no bound per route is proven.
    /// "Unreachable" stays exact. It costs about 0.9x the graph's compile time at
    /// [`Router::prepare`] on two threads (1.3x to 1.6x on one) and about half the graph's
    /// memory again (38 MB on top of its 78 MB at 2048), and follows
    /// [`Router::apply_changes`] chunk by chunk (about 0.11 ms per block edit and 2.5 ms per
    /// chunk column loaded at p50 on the 1.21.11 save, see the README). Its landmarks (the
    /// lower bounds that guide its search) survive most updates (178 of 200 block edits of `long --size 1024`);
    /// one that opens a shortcut they do not allow drops them, and long routes take about
    /// 2.7x the instructions (still about 5x fewer than A* over the graph, 20 routes at
    /// 1024 x 1024) until [`Router::refresh_long_routes`] (or the next [`Router::prepare`])
    /// computes them again. Only walkers with a prepared graph and
    /// single-block goals under the default heuristic use it; the others are answered as
    /// before.
    #[must_use]
    pub fn with_long_routes(mut self, on: bool) -> Self {
        let costs = on.then_some(self.costs);
        self.batch.index_slot_mut().set_long_routes(costs);
        self
    }

    /// Sets the most cells of a bounded world (its bounds' volume) for which
    /// [`Router::prepare`] builds jump tables for a flier or swimmer (24 bytes a cell, see
    /// [`Router::prepare`]): [`ROUTER_TABLE_CELLS`](crate::batch::ROUTER_TABLE_CELLS) by
    /// default (2 097 152 cells, 50 MB), a cap on the memory the router spends unasked. Larger
    /// worlds are jumped without tables unless it is raised, up to
    /// [`MAX_TABLE_CELLS`](crate::search::jps3d::MAX_TABLE_CELLS) (16.8 million cells, 400 MB;
    /// a larger value counts as that); 0 builds none. Tables still pay on large worlds: on the
    /// 256 x 128 x 256 world of pillars and slabs of `benches/jps3d.rs` (8.4 million cells,
    /// 204.5 MB, built in 0.8 to 1.0 s) a query took 0.72 ms with them against 1.55-1.59 ms
    /// without and 3.56-3.60 ms for the flier A*, and on `Simple` tiled 3 x 1 x 3 (13.1
    /// million cells, 319 MB, built in 1.9 s) 22-24 us against 0.67-0.68 ms without and
    /// 9.1-9.8 ms for the flier A* (a quiet 2-core machine, 2026-11-29, three interleaved
    /// runs of `JPS3D_ENGINE=tables`, `jps` and `astar` on `cargo bench --bench jps3d`).
    /// Takes effect at the next [`Router::prepare`].
    #[must_use]
    pub fn with_jump_table_cells(mut self, cells: u64) -> Self {
        self.batch.set_jump_table_cells(cells);
        self
    }

    /// Computes the landmarks of the abstraction for long routes again when changes dropped
    /// them (see [`Router::with_long_routes`]); returns whether it did. A pass over the whole
    /// abstraction (about 1.1 s at 2048 x 2048 blocks, `HIER_ENGINE=hpa cargo run --release
    /// --example long -- --pairs 20 --weight 1`): run it off the tick, once edits settle.
    pub fn refresh_long_routes(&mut self) -> bool {
        self.batch.index_slot_mut().refresh_landmarks()
    }

    /// The options of [`Router::route`] and [`Router::route_many`].
    #[must_use]
    pub fn options(&self) -> &SearchOptions {
        self.batch.options()
    }

    /// The agent.
    #[must_use]
    pub fn agent(&self) -> &Agent {
        self.batch.agent()
    }

    /// The costs.
    #[must_use]
    pub fn costs(&self) -> &MoveCosts {
        &self.costs
    }

    /// A route from the feet position `start` to the feet position `goal`, under the router's
    /// options.
    ///
    /// # Errors
    /// A typed error when `start` or `goal` is not a valid feet position for the agent (it
    /// says why: no floor, no head room, outside the world), or a budget is zero.
    pub fn route<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<SearchResult> {
        self.route_to(world, start, &BlockGoal(goal), self.options())
    }

    /// A route from `start` to any position `goal` accepts, under `options`.
    ///
    /// # Errors
    /// As [`Router::route`].
    pub fn route_to<W: VoxelWorld + ?Sized, G: Goal + ?Sized>(
        &self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.batch
            .answer_one(&Tracked::new(world), start, goal, options)
    }

    /// A route from `start` toward `goal` in a world that loads chunks as players move: the
    /// route to `goal` when it is loaded and reachable through the loaded area; otherwise the
    /// best partial route to the edge of the loaded area, flagged
    /// [`EdgeRoute::at_edge`](crate::reach::EdgeRoute::at_edge), so an NPC walks toward its
    /// target while the chunks in between load (route again once they have). Searched on the
    /// fly under the router's options.
    ///
    /// ```
    /// use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, Router, SearchStatus};
    ///
    /// // Two loaded chunk columns with a floor at y = 0 (Minecraft's section order: y, z, x);
    /// // the goal lies in column (3, 0), not loaded yet.
    /// let mut world = ChunkedWorld::with_height(0, 16)?;
    /// let ground: Vec<u16> = (0..4096).map(|i| u16::from(i < 256)).collect();
    /// let palette = [Block::Air, Block::Solid];
    /// for cx in 0..2 {
    ///     world.insert_column(cx, 0, [(&palette[..], &ground[..])])?;
    /// }
    /// let router = Router::new(Agent::default(), MoveCosts::default())?;
    /// let toward = router.route_toward(&world, IVec3::new(1, 1, 1), IVec3::new(50, 1, 1))?;
    /// assert!(toward.at_edge);
    /// assert_eq!(toward.result.status, SearchStatus::Partial);
    /// assert_eq!(toward.result.path.last().map(|p| p.x), Some(31));
    /// # Ok::<(), voxnav::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Router::route`], except that a goal in an unloaded chunk is not an error when
    /// some edge of the loaded area can be reached.
    pub fn route_toward<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Result<crate::reach::EdgeRoute> {
        self.batch.toward_one(world, start, goal, self.options())
    }

    /// Answers `queries` under the router's options, in their order: on rayon's current
    /// thread pool with the `rayon` feature (run it inside `rayon::ThreadPool::install` to
    /// choose the threads), one after the other without it. Each answer is the one
    /// [`Router::route_to`] gives alone.
    pub fn route_many<W, G>(
        &self,
        world: &W,
        queries: &[RouteQuery<G>],
    ) -> Vec<Result<SearchResult>>
    where
        W: VoxelWorld + Sync + ?Sized,
        G: Goal + Sync,
    {
        let world = Tracked::new(world);
        #[cfg(feature = "rayon")]
        {
            self.batch.route_many(&world, queries)
        }
        #[cfg(not(feature = "rayon"))]
        {
            self.batch.route_many_sequential(&world, queries)
        }
    }

    /// Compiles the walk graph of `world` and labels its reachability index, so that later
    /// queries on `world` run over the graph and unreachable goals are answered with no
    /// search. Returns whether anything was prepared: only walkers on bounded worlds that
    /// report a [`Revision`] have a graph, and fliers and swimmers get jump tables (below);
    /// for the others every query is searched on the fly and this does nothing. A world of
    /// chunk columns ([`ChunkedWorld::with_height`](crate::ChunkedWorld::with_height))
    /// counts as bounded by the columns it has loaded, and may be prepared before any has:
    /// the graph and index then follow each column [`Router::apply_changes`] reports loaded
    /// or unloaded, with no compile of the world.
    ///
    /// Costs time and memory once: about 15 bytes per feet position for the graph, about as
    /// many for the index (the README's memory table), and for long routes an abstraction of
    /// the graph, about 0.9x the compile's time on two threads and half the graph's memory
    /// again, unless [`Router::with_long_routes`] turned it off (see there). Worth it when a
    /// world answers many queries between changes.
    ///
    /// For fliers and swimmers that meet jump point search ([`Engine::JumpPoints`]) it
    /// precomputes their face and edge jumps instead
    /// ([`JumpTables`](crate::search::jps3d::JumpTables), 24 bytes per cell of the world's
    /// bounds, bounded worlds of at most 2 097 152 cells unless
    /// [`Router::with_jump_table_cells`] raises the cap): the same routes 20x faster than the
    /// flier A* on Moving AI's `Simple` map (5.2-5.3 us against 104.4-105.5 us per query,
    /// `cargo bench --bench jps3d`; 19.4-20.0 us jumping without the tables). The tables
    /// describe the world as it is now: a query on a later version of
    /// it jumps without them until [`Router::apply_changes`] brings them up to date, locally
    /// (the lines through the changed blocks' neighbourhoods); changes they cannot follow
    /// (chunk columns loaded or unloaded, changes missing) drop them.
    ///
    /// # Errors
    /// [`Error::GraphTooLarge`](crate::Error::GraphTooLarge) for worlds too large to compile.
    pub fn prepare<W: VoxelWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        if self.agent().movement != Movement::Walk {
            self.forget();
            let built = self.batch.build_jump_tables(world)?;
            if built {
                self.prepared = Revision::of(world).map(|revision| revision.world);
            }
            return Ok(built);
        }
        if world.bounds().is_none() {
            return Ok(false);
        }
        let Some(revision) = Revision::of(world) else {
            return Ok(false);
        };
        let world = Tracked { world, revision };
        self.forget();
        self.batch.build_graph(&world)?;
        self.batch.build_index(&world)?;
        self.prepared = Some(revision.world);
        Ok(true)
    }

    /// Brings what [`Router::prepare`] built up to date after the blocks in `changes`
    /// changed in `world`, updating only the neighbourhood of each change. `changes` must
    /// hold every change since the last prepare or apply (as
    /// [`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes) reports them when
    /// taken after each call; reports taken before the world changed again may come later, in
    /// order: until the last is applied, queries do without what was prepared, which trails
    /// the world). Does nothing when nothing was prepared; for another world than
    /// the prepared one (or one that reports no [`Revision`]) it drops what was prepared
    /// instead of rebuilding it: call [`Router::prepare`] for the new world.
    ///
    /// # Errors
    /// As [`Router::prepare`]. A failed update drops what was prepared, so that no later
    /// query meets a half-updated graph.
    pub fn apply_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<()> {
        let Some(prepared) = self.prepared else {
            return Ok(());
        };
        if self.agent().movement != Movement::Walk {
            // The jump tables follow block changes locally; chunk columns loaded or unloaded,
            // or changes they cannot vouch for, drop them (queries jump without them). A report
            // with no changed cell is applied too: it may still show a gap before it.
            let same_world = Revision::of(world).is_some_and(|revision| revision.world == prepared);
            if !same_world || !self.batch.update_jump_tables(world, changes) {
                self.forget();
            }
            return Ok(());
        }
        match Revision::of(world) {
            Some(revision) if revision.world == prepared => {
                let updated = self
                    .batch
                    .apply_changes(&Tracked { world, revision }, changes);
                if updated.is_err() {
                    self.forget();
                }
                updated.map(|_| ())
            }
            _ => {
                self.forget();
                Ok(())
            }
        }
    }

    /// Drops the compiled graph and index: queries are searched on the fly from then on.
    pub fn forget(&mut self) {
        self.batch.clear_graph();
        self.batch.clear_index();
        self.batch.clear_jump_tables();
        self.prepared = None;
    }

    /// The engine a query for a single block ([`Router::route`]) on `world` would meet now,
    /// under the router's options.
    #[must_use]
    pub fn engine<W: VoxelWorld + ?Sized>(&self, world: &W) -> Engine {
        if self.batch.jumps(self.options()) {
            Engine::JumpPoints
        } else if self
            .batch
            .index_slot()
            .current_graph(&Tracked::new(world))
            .is_some()
        {
            Engine::Graph
        } else {
            Engine::OnTheFly
        }
    }

    /// The walk graph [`Router::prepare`] compiled, if any (whichever world version it
    /// describes; [`Router::engine`] tells whether it describes a world as it is now).
    #[must_use]
    pub fn graph(&self) -> Option<&crate::graph::NavGraph> {
        self.batch.graph()
    }

    /// The bytes held by the compiled graph, the index, the abstraction for long routes and
    /// the jump tables (0 when nothing is prepared).
    #[must_use]
    pub fn prepared_bytes(&self) -> usize {
        self.batch
            .graph()
            .map_or(0, crate::graph::NavGraph::memory_bytes)
            + self
                .batch
                .index()
                .map_or(0, crate::reach::ReachIndex::memory_bytes)
            + self
                .batch
                .index_slot()
                .abstraction()
                .map_or(0, crate::hier::Abstraction::memory_bytes)
            + self.batch.jump_tables_bytes()
    }
}

/// A world seen with its [`Revision`], so that the engines which keep derived structures can
/// tell whether they describe it. A world without a revision is given one that no prepared
/// structure ever carries ([`Router::prepare`] refuses such worlds), so every query on it is
/// searched on the fly.
struct Tracked<'a, W: ?Sized> {
    world: &'a W,
    revision: Revision,
}

impl<'a, W: VoxelWorld + ?Sized> Tracked<'a, W> {
    fn new(world: &'a W) -> Self {
        let revision = Revision::of(world).unwrap_or(Revision {
            world: WorldId::UNTRACKED,
            version: 0,
        });
        Self { world, revision }
    }
}

/// Every [`VoxelWorld`] method is the world's own (the revision is the only addition).
impl<W: ?Sized> std::ops::Deref for Tracked<'_, W> {
    type Target = W;

    fn deref(&self) -> &W {
        self.world
    }
}

crate::world::forward_world!(Tracked<'_, W>);

impl<W: VoxelWorld + ?Sized> VersionedWorld for Tracked<'_, W> {
    #[inline]
    fn world_id(&self) -> WorldId {
        self.revision.world
    }

    #[inline]
    fn version(&self) -> u64 {
        self.revision.version
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Bounds;
    use crate::{Block, ChunkedWorld, SearchStatus};

    /// The cap on jump tables: a flier's world of more cells than the cap is jumped without
    /// tables (nothing prepared), one within it gets them, and the cap moves that line both
    /// ways (0 builds none, a value past [`MAX_TABLE_CELLS`](crate::search::jps3d::MAX_TABLE_CELLS)
    /// counts as it); the routes cost the same either way.
    #[test]
    fn jump_tables_follow_the_cap_on_cells() -> Result<()> {
        let size = IVec3::new(16, 8, 16);
        let cells = 16 * 8 * 16;
        let mut world = ChunkedWorld::with_bounds(Bounds::new(IVec3::ZERO, size))?;
        // A wall to go round, open at the top.
        world.fill(IVec3::new(7, 0, 2), IVec3::new(8, 6, 15), Block::Solid)?;
        let (start, goal) = (IVec3::new(1, 1, 8), IVec3::new(14, 1, 8));
        let mut costs = Vec::new();
        for (cap, built) in [
            (None, true),
            (Some(cells - 1), false),
            (Some(cells), true),
            (Some(0), false),
            (Some(u64::MAX), true),
        ] {
            let mut router = Router::new(Agent::flier(1), MoveCosts::default())?;
            if let Some(cap) = cap {
                router = router.with_jump_table_cells(cap);
            }
            assert_eq!(router.prepare(&world)?, built, "cap {cap:?}");
            assert_eq!(router.prepared_bytes() > 0, built, "cap {cap:?}");
            assert_eq!(router.engine(&world), Engine::JumpPoints, "cap {cap:?}");
            let routed = router.route(&world, start, goal)?;
            assert_eq!(routed.status, SearchStatus::Found, "cap {cap:?}");
            costs.push(routed.cost);
        }
        assert!(costs.windows(2).all(|pair| pair[0] == pair[1]), "{costs:?}");
        Ok(())
    }
}
