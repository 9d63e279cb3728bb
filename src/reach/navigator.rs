//! [`Navigator`]: a [`Pathfinder`] with a [`ReachIndex`] in front of it.

use glam::IVec3;

use super::index::ReachIndex;
use super::slot::IndexSlot;
use crate::error::Result;
use crate::graph::{GraphSearch, NavGraph};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::{BlockGoal, Goal, Pathfinder, SearchOptions, SearchResult};
use crate::world::VersionedWorld;
use crate::world::chunked::Changes;

/// A [`Pathfinder`] with an optional [`ReachIndex`] in front of it: unreachable exact goals
/// are answered without searching, and a stale index is rebuilt lazily on the next query.
#[derive(Debug, Clone)]
pub struct Navigator {
    pathfinder: Pathfinder,
    graph_search: GraphSearch,
    index: IndexSlot,
    lazy_rebuild: bool,
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

    /// Uses `index` from now on.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`](crate::Error::InvalidSetting) when the index was built for
    /// another agent.
    pub fn with_index(mut self, index: ReachIndex) -> Result<Self> {
        self.index.set(index)?;
        Ok(self)
    }

    /// Whether a stale index is rebuilt before the next query (`true`) or ignored until
    /// [`Navigator::refresh_index`] is called (`false`, for worlds that change every tick,
    /// where a rebuild per query would cost more than it saves). Either way a stale index is
    /// never trusted. Defaults to `true`.
    #[must_use]
    pub fn with_lazy_rebuild(mut self, lazy_rebuild: bool) -> Self {
        self.lazy_rebuild = lazy_rebuild;
        self
    }

    /// Builds (or rebuilds) the index from `world` and returns it.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        self.index.build(world)
    }

    /// Rebuilds the index if it is stale; returns whether it rebuilt (`false` without an
    /// index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        self.index.refresh(world)
    }

    /// The index, if there is one.
    #[must_use]
    pub fn index(&self) -> Option<&ReachIndex> {
        self.index.get()
    }

    /// Compiles the walk graph of `world`: from then on queries on `world` run A* over the
    /// graph ([`IndexSlot::search`]), and a stale graph is recompiled lazily like the index
    /// (or brought up to date with [`Navigator::apply_changes`]).
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    pub fn build_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&NavGraph> {
        self.index.build_graph(world)
    }

    /// Updates the graph (and relabels the index) after `changes`; see
    /// [`IndexSlot::apply_changes`].
    ///
    /// # Errors
    /// As [`IndexSlot::apply_changes`].
    pub fn apply_changes<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<bool> {
        self.index.apply_changes(world, changes)
    }

    /// The graph, if there is one.
    #[must_use]
    pub fn graph(&self) -> Option<&NavGraph> {
        self.index.graph()
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
    /// As [`Pathfinder::search`], and as [`ReachIndex::build`] when a lazy rebuild fails.
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
                self.refresh_index(world)?;
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
