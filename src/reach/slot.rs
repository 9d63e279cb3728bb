//! [`IndexSlot`]: the one holder of a reachability index and a compiled walk graph, and the
//! one place a query meets them ([`IndexSlot::search`]); [`IndexedRouter`]: the methods
//! [`Navigator`](super::Navigator) and [`BatchRouter`](crate::batch::BatchRouter) share
//! through the slot each keeps.

use std::time::Instant;

use glam::IVec3;

use super::index::ReachIndex;
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph};
use crate::hier::{AbstractSearch, Abstraction};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::heuristic::Heuristic;
use crate::search::{Goal, Pathfinder, SearchOptions, SearchResult, SearchStats};
use crate::world::chunked::Changes;
use crate::world::{VersionedWorld, WorldId};

/// At most one [`ReachIndex`] and one [`NavGraph`], always built for the holder's agent:
/// building, refreshing, replacing and asking them, written once for every router that
/// keeps them.
///
/// Both remember which world they describe and at which version; a router trusts them only
/// for that world at that version, and otherwise searches the world itself.
#[derive(Debug, Clone)]
pub struct IndexSlot {
    agent: Agent,
    index: Option<ReachIndex>,
    graph: Option<KeptGraph>,
    /// The costs long routes are abstracted for, when the holder asked for them
    /// ([`IndexSlot::set_long_routes`]).
    long_routes: Option<MoveCosts>,
    /// The abstraction over the graph for long routes, built with it and following its
    /// updates.
    abstraction: Option<Abstraction>,
}

/// A walk graph and the world (id and version) it describes.
#[derive(Debug, Clone)]
struct KeptGraph {
    graph: NavGraph,
    world: WorldId,
    version: u64,
}

impl KeptGraph {
    fn describes<W: VersionedWorld + ?Sized>(&self, world: &W) -> bool {
        world.world_id() == self.world
            && world.version() == self.version
            && world.bounds() == Some(self.graph.bounds())
    }
}

impl IndexSlot {
    /// An empty slot for indices and graphs built for `agent`.
    #[must_use]
    pub fn new(agent: Agent) -> Self {
        Self {
            agent,
            index: None,
            graph: None,
            long_routes: None,
            abstraction: None,
        }
    }

    /// Keeps an [`Abstraction`] for long routes over the graph, priced at `costs`, from the
    /// next [`IndexSlot::build_graph`] on (built with the graph, following its updates), or
    /// drops it (`None`). See [`IndexSlot::search_long`].
    pub fn set_long_routes(&mut self, costs: Option<MoveCosts>) {
        if costs != self.long_routes {
            self.abstraction = None;
        }
        self.long_routes = costs;
    }

    /// The abstraction for long routes, if one is kept.
    #[must_use]
    pub fn abstraction(&self) -> Option<&Abstraction> {
        self.abstraction.as_ref()
    }

    /// Computes the abstraction's landmarks again ([`Abstraction::refresh_landmarks`]) when
    /// updates dropped them; returns whether it did. A whole-abstraction pass (seconds at
    /// 2048 x 2048): call it between ticks, once edits settle, not on every change.
    pub fn refresh_landmarks(&mut self) -> bool {
        match &mut self.abstraction {
            Some(abstraction) if !abstraction.landmarks_current() => {
                abstraction.refresh_landmarks();
                true
            }
            _ => false,
        }
    }

    /// Holds `index` from now on.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the index was built for another agent.
    pub fn set(&mut self, index: ReachIndex) -> Result<()> {
        if *index.agent() != self.agent {
            return Err(Error::InvalidSetting(format!(
                "the reachability index was built for agent {:?}, not for {:?}",
                index.agent(),
                self.agent
            )));
        }
        self.index = Some(index);
        Ok(())
    }

    /// Builds (or rebuilds) the index from `world` and returns it: from the held graph when
    /// it describes `world`, otherwise from a graph compiled for the purpose.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        let index = match self.current_graph(world) {
            Some(graph) => ReachIndex::from_graph(world, graph)?,
            None => ReachIndex::build(world, &self.agent)?,
        };
        Ok(self.index.insert(index))
    }

    /// Rebuilds the index if it does not describe `world` (another world, or this one
    /// changed); returns whether it rebuilt (`false` without an index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &self.index {
            Some(index) if !index.is_current(world) => {
                self.build(world)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Compiles (or recompiles) the walk graph of `world`: queries on `world` are then
    /// answered by A* over the graph ([`GraphSearch`]) while it describes the world.
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    pub fn build_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&NavGraph> {
        let graph = NavGraph::compile(world, &self.agent)?;
        self.abstraction = None;
        if let Some(costs) = &self.long_routes {
            self.abstraction = Some(Abstraction::build(&graph, costs)?);
        }
        let kept = self.graph.insert(KeptGraph {
            graph,
            world: world.world_id(),
            version: world.version(),
        });
        Ok(&kept.graph)
    }

    /// Brings the graph up to date after the blocks in `changes` changed in `world`: a local
    /// update ([`NavGraph::apply_changes`]) when the graph was built from `world` and
    /// `changes` holds every change since (as [`ChunkedWorld::take_changes`] reports them
    /// when taken after each graph update), a new compile for another world. Chunk columns
    /// loaded or unloaded ([`Changes::has_column_changes`]) are followed the same way,
    /// wherever they lie: the graph has no bounds to outgrow.
    ///
    /// A held index that described the graph's version before the changes follows locally
    /// too ([`ReachIndex::apply_update`]): never a relabelling of the whole world. It stays
    /// sound, answering "maybe" ([`Reach::SameRegion`](super::Reach::SameRegion)) where a
    /// fresh build might prove more; [`IndexSlot::build`] relabels for callers who want
    /// that. An index that cannot follow (stale already, or the update fails) is left stale
    /// (answering [`Reach::Unknown`](super::Reach::Unknown)) or dropped, never rebuilt here.
    /// Returns whether there is a graph.
    ///
    /// [`ChunkedWorld::take_changes`]: crate::ChunkedWorld::take_changes
    ///
    /// # Errors
    /// As [`NavGraph::apply_changes`] (the graph and the index are dropped then: queries
    /// search the world until the next [`IndexSlot::build_graph`]) and [`NavGraph::compile`].
    pub fn apply_changes<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<bool> {
        let Some(kept) = &mut self.graph else {
            if changes.has_column_changes() {
                // Without a graph the index cannot follow a column locally, and relabelling
                // the world is what this method never does: dropped, its answers become
                // "maybe" and queries search until the next `build`.
                self.index = None;
            }
            return Ok(false);
        };
        if kept.world == world.world_id() {
            let before = kept.version;
            let update = match kept.graph.apply_changes(world, changes) {
                Ok(update) => update,
                Err(error) => {
                    // A graph the changes cannot bring up to date (changes missed, or an
                    // update that failed part way) is of no more use, nor is an index or
                    // an abstraction that followed it: queries search the world.
                    self.graph = None;
                    self.index = None;
                    self.abstraction = None;
                    return Err(error);
                }
            };
            if let Some(abstraction) = &mut self.abstraction
                && abstraction.update(&kept.graph, &update).is_err()
            {
                // Long routes go back to A* over the graph until the next build.
                self.abstraction = None;
            }
            // The changes may have been taken before the world's last writes: the graph
            // describes the version they were taken at.
            kept.version = kept.graph.world_version().unwrap_or(world.version());
            if let Some(index) = &mut self.index
                && index.world_id() == kept.world
                && index.version() == before
                && index.apply_update(world, &kept.graph, &update).is_err()
            {
                // Merged labels are sound, but a half-followed update leaves the index
                // unable to say which version it describes.
                self.index = None;
            }
        } else {
            self.build_graph(world)?;
        }
        Ok(true)
    }

    /// Recompiles the graph if it does not describe `world`; returns whether it did (`false`
    /// without a graph).
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    pub fn refresh_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &self.graph {
            Some(kept) if !kept.describes(world) => {
                self.build_graph(world)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The graph, if there is one (whichever world and version it describes).
    #[must_use]
    pub fn graph(&self) -> Option<&NavGraph> {
        self.graph.as_ref().map(|kept| &kept.graph)
    }

    /// The graph when it describes `world` as it is now.
    #[must_use]
    pub fn current_graph<W: VersionedWorld + ?Sized>(&self, world: &W) -> Option<&NavGraph> {
        self.graph
            .as_ref()
            .filter(|kept| kept.describes(world))
            .map(|kept| &kept.graph)
    }

    /// Drops the graph: queries search the world itself from then on.
    pub fn clear_graph(&mut self) {
        self.graph = None;
        self.abstraction = None;
    }

    /// [`IndexSlot::search`], except that a query for one block (a goal whose
    /// [`Goal::block_target`] is set) under the default heuristic goes through the kept
    /// [`Abstraction`] when it describes the current graph and the index does not prove the
    /// goal unreachable: [`AbstractSearch::find_path`], near-optimal on long routes (see
    /// [`crate::hier`]), A* over the graph on short ones.
    ///
    /// # Errors
    /// As [`IndexSlot::search`].
    #[allow(clippy::too_many_arguments)]
    pub fn search_long<W, G>(
        &self,
        long: &mut AbstractSearch,
        pathfinder: &mut Pathfinder,
        graph_search: &mut GraphSearch,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal + ?Sized,
    {
        if let (Some(abstraction), Some(target)) = (&self.abstraction, goal.block_target())
            && options.heuristic == Heuristic::default()
            && let Some(graph) = self.graph_for(world, pathfinder.agent(), start, Some(target))
        {
            if let Some(answer) =
                self.proof(world, pathfinder.agent(), start, Some(target), options)
            {
                return Ok(answer);
            }
            match long.find_path(abstraction, graph, start, target, options) {
                // An abstraction behind its graph: A* over the graph answers.
                Err(Error::StaleGraph { .. }) => {}
                answer => return answer,
            }
        }
        self.search(pathfinder, graph_search, world, start, goal, options)
    }

    /// Answers one query: the index first, then A* over the graph when it describes `world`,
    /// was compiled for the pathfinder's agent and holds the start (and the goal, when the
    /// goal names one position), otherwise [`Pathfinder::search`] on the world. Over the
    /// graph the cost is the same as on the world; the route may differ between routes of
    /// equal cost, and so may the expansions.
    ///
    /// The index answers only when it proves the goal unreachable
    /// ([`Reach::proves_unreachable`](super::Reach::proves_unreachable): a start and goal in
    /// different regions, or one-way moves leading the wrong way): then the answer is
    /// [`SearchStatus::Unreachable`](crate::SearchStatus::Unreachable) at once, with zero
    /// expansions. The query itself is validated once, by the search: the index answers only
    /// for a current index (same world, same version) that labels both positions, which are
    /// then valid feet positions, and only under valid budgets; anything else goes to the
    /// search, which reports the error. So the index changes only how fast an answer comes,
    /// never which answer (or error).
    ///
    /// # Errors
    /// As [`Pathfinder::search`].
    pub fn search<W, G>(
        &self,
        pathfinder: &mut Pathfinder,
        graph_search: &mut GraphSearch,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal + ?Sized,
    {
        let target = goal.exact_target();
        if let Some(answer) = self.proof(world, pathfinder.agent(), start, target, options) {
            return Ok(answer);
        }
        if let Some(graph) = self.graph_for(world, pathfinder.agent(), start, target) {
            return graph_search.search(graph, start, goal, options);
        }
        pathfinder.search(world, start, goal, options)
    }

    /// The index's answer when it proves `target` unreachable from `start` (see
    /// [`IndexSlot::search`]).
    fn proof<W: VersionedWorld + ?Sized>(
        &self,
        world: &W,
        agent: &Agent,
        start: IVec3,
        target: Option<IVec3>,
        options: &SearchOptions,
    ) -> Option<SearchResult> {
        let index = self.index.as_ref()?;
        index_answer(index, agent, world, start, target, options)
    }

    /// The graph when it describes `world`, was compiled for `agent` and holds `start` (and
    /// `target`, when the goal names one position).
    fn graph_for<W: VersionedWorld + ?Sized>(
        &self,
        world: &W,
        agent: &Agent,
        start: IVec3,
        target: Option<IVec3>,
    ) -> Option<&NavGraph> {
        self.current_graph(world).filter(|graph| {
            graph.agent() == agent
                && graph.node(start).is_some()
                && target.is_none_or(|target| graph.node(target).is_some())
        })
    }

    /// The index, if there is one.
    #[must_use]
    pub fn get(&self) -> Option<&ReachIndex> {
        self.index.as_ref()
    }

    /// Drops the index.
    pub fn clear(&mut self) {
        self.index = None;
    }
}

/// What [`Navigator`](super::Navigator) and [`BatchRouter`](crate::batch::BatchRouter) share:
/// a reachability index and a compiled walk graph kept in an [`IndexSlot`], built, refreshed,
/// replaced and dropped by the methods below, written once for both. Bring it into scope
/// with `use voxnav::engine::IndexedRouter` (or `voxnav::prelude::*`).
///
/// Neither router trusts an index or a graph that does not describe the world it is asked
/// about (another world, or this one changed since): it searches the world instead, so the
/// answers stay right, only slower. A [`Navigator`](super::Navigator) rebuilds both lazily
/// before its next query (unless told not to); a [`BatchRouter`](crate::batch::BatchRouter)
/// never does by itself: refresh between batches.
pub trait IndexedRouter {
    /// The slot holding the router's index and graph.
    fn index_slot(&self) -> &IndexSlot;

    /// The slot holding the router's index and graph, to change.
    fn index_slot_mut(&mut self) -> &mut IndexSlot;

    /// Uses `index` from now on.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the index was built for another agent.
    fn with_index(mut self, index: ReachIndex) -> Result<Self>
    where
        Self: Sized,
    {
        self.index_slot_mut().set(index)?;
        Ok(self)
    }

    /// The index, if there is one.
    #[must_use]
    fn index(&self) -> Option<&ReachIndex> {
        self.index_slot().get()
    }

    /// Drops the index: queries are searched from then on.
    fn clear_index(&mut self) {
        self.index_slot_mut().clear();
    }

    /// Builds (or rebuilds) the index from `world` and returns it (from the graph when the
    /// router keeps one that describes `world`).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    fn build_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        self.index_slot_mut().build(world)
    }

    /// Rebuilds the index if it does not describe `world` (another world, or this one
    /// changed since the build); returns whether it rebuilt (`false` without an index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    fn refresh_index<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        self.index_slot_mut().refresh(world)
    }

    /// Compiles the walk graph of `world`: from then on queries on `world` are answered by
    /// A* over the graph ([`IndexSlot::search`]) while it describes the world: the same
    /// costs, fewer reads of the world.
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    fn build_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&NavGraph> {
        self.index_slot_mut().build_graph(world)
    }

    /// Updates the graph (and, locally, the index) after `changes`; see
    /// [`IndexSlot::apply_changes`].
    ///
    /// # Errors
    /// As [`IndexSlot::apply_changes`].
    fn apply_changes<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<bool> {
        self.index_slot_mut().apply_changes(world, changes)
    }

    /// The graph, if there is one.
    #[must_use]
    fn graph(&self) -> Option<&NavGraph> {
        self.index_slot().graph()
    }

    /// Drops the graph: queries search the world from then on.
    fn clear_graph(&mut self) {
        self.index_slot_mut().clear_graph();
    }
}

/// The index's answer to a query toward `target`, when it proves the goal unreachable and
/// the budgets are valid (see [`IndexSlot::search`]).
fn index_answer<W: VersionedWorld + ?Sized>(
    index: &ReachIndex,
    agent: &Agent,
    world: &W,
    start: IVec3,
    target: Option<IVec3>,
    options: &SearchOptions,
) -> Option<SearchResult> {
    let target = target?;
    let started = Instant::now();
    let budgets_valid =
        options.max_nodes != Some(0) && !options.max_time.is_some_and(|t| t.is_zero());
    (budgets_valid
        && index
            .reach(world, agent, start, target)
            .proves_unreachable())
    .then(|| {
        SearchResult::unreachable(SearchStats {
            expanded: 0,
            generated: 0,
            elapsed: started.elapsed(),
        })
    })
}
