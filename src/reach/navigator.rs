//! [`Navigator`]: a [`Pathfinder`] with a [`ReachIndex`](super::ReachIndex) in front of it.

use glam::IVec3;

use super::slot::{IndexSlot, IndexedRouter};
use crate::error::Result;
use crate::graph::GraphSearch;
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult};
use crate::world::VersionedWorld;

/// A [`Pathfinder`] with an optional [`ReachIndex`](super::ReachIndex) in front of it:
/// unreachable exact goals are answered without searching, and a stale index is rebuilt
/// lazily on the next query. With a compiled walk graph
/// ([`IndexedRouter::build_graph`]) queries run A* over the graph, and a stale graph is
/// recompiled lazily like the index (or brought up to date with
/// [`IndexedRouter::apply_changes`]). The index and graph methods come from
/// [`IndexedRouter`].
///
/// Its `Debug` output is a summary of its index and graph, not their arrays.
#[derive(Clone)]
pub struct Navigator {
    pathfinder: Pathfinder,
    graph_search: GraphSearch,
    index: IndexSlot,
    lazy_rebuild: bool,
}

impl std::fmt::Debug for Navigator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Navigator")
            .field("agent", self.pathfinder.agent())
            .field("lazy_rebuild", &self.lazy_rebuild)
            .field("slot", &self.index)
            .finish_non_exhaustive()
    }
}

impl Navigator {
    /// A navigator for `agent` moving at `costs`, without an index yet.
    ///
    /// # Errors
    /// As [`Pathfinder::new`].
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        Ok(Self {
            pathfinder: Pathfinder::new(agent, costs)?,
            graph_search: GraphSearch::new(costs)?,
            index: IndexSlot::new(agent),
            lazy_rebuild: true,
        })
    }

    /// Whether a stale index is rebuilt before the next query (`true`) or ignored until
    /// [`IndexedRouter::refresh_index`] is called (`false`, for worlds that change every tick,
    /// where a rebuild per query would cost more than it saves). Either way a stale index is
    /// never trusted. Defaults to `true`.
    #[must_use]
    pub fn with_lazy_rebuild(mut self, lazy_rebuild: bool) -> Self {
        self.lazy_rebuild = lazy_rebuild;
        self
    }

    /// The pathfinder (for [`Pathfinder::explored`] and the agent). A query the index
    /// answered does not search, so the pathfinder still holds the search before it.
    #[must_use]
    pub fn pathfinder(&self) -> &Pathfinder {
        &self.pathfinder
    }

    /// Finds a route from the feet position `start` to the feet position `goal`; see
    /// [`Navigator::search`].
    ///
    /// # Errors
    /// As [`Navigator::search`].
    pub fn find_path<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.search(world, start, &BlockGoal(goal), options)
    }

    /// Searches like [`Pathfinder::search`], after asking the index when the goal names an
    /// exact target. A stale index is rebuilt first when lazy rebuilds are on.
    ///
    /// # Errors
    /// As [`Pathfinder::search`], and as [`ReachIndex::build`](super::ReachIndex::build) or
    /// [`NavGraph::compile`](crate::engine::NavGraph::compile) when a lazy rebuild fails.
    pub fn search<W: VersionedWorld + ?Sized, G: Goal + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        if self.lazy_rebuild {
            self.index.refresh_graph(world)?;
            if goal.exact_target().is_some() {
                self.index.refresh(world)?;
            }
        }
        self.index.search(
            &mut self.pathfinder,
            &mut self.graph_search,
            world,
            start,
            goal,
            options,
        )
    }
}

impl IndexedRouter for Navigator {
    fn index_slot(&self) -> &IndexSlot {
        &self.index
    }

    fn index_slot_mut(&mut self) -> &mut IndexSlot {
        &mut self.index
    }
}
