//! Local updates of a [`ReachIndex`]: [`ReachIndex::apply_update`], the `Live` state it keeps
//! on top of the built labels, and the union-find over region labels.

use glam::IVec3;

use super::added::AddedLabels;
use super::{Reach, ReachIndex};
use crate::error::{Error, Result};
use crate::graph::{GraphUpdate, NavGraph};
use crate::moves::agent::MoveCosts;
use crate::world::VersionedWorld;

/// The state local updates keep on top of the built labels. Labels only ever merge, so
/// regions over-approximate connectivity as moves disappear (sound: "same region" proves
/// nothing); ranks stay a proof only in regions no added node or changed move touched.
#[derive(Debug, Clone)]
pub(super) struct Live {
    /// Union-find over region labels: the build's, then one fresh label per added node.
    pub(super) sets: DisjointSets,
    /// Per label, meaningful at roots: whether a node was added or its moves changed in the
    /// region since the build, so the build's ranks no longer prove one-way cases there.
    pub(super) unranked: Vec<bool>,
    /// Positions that became valid feet positions since the build, with their labels; they
    /// override the built layout (a position removed and added again is here).
    pub(super) added: AddedLabels,
    /// How many local updates were applied since the build.
    updates: u64,
}

impl Live {
    fn new(regions: usize) -> Self {
        Self {
            sets: DisjointSets::new(regions),
            unranked: vec![false; regions],
            added: AddedLabels::default(),
            updates: 0,
        }
    }

    /// Joins the regions of labels `a` and `b`; the joined region keeps a rank proof only
    /// if both had one.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.sets.find(a), self.sets.find(b));
        if ra == rb {
            return;
        }
        let unranked = self.unranked[ra as usize] || self.unranked[rb as usize];
        self.sets.union(ra, rb);
        let root = self.sets.find(ra);
        self.unranked[root as usize] = unranked;
    }

    fn unrank(&mut self, label: u32) {
        let root = self.sets.find(label);
        self.unranked[root as usize] = true;
    }

    /// Gives back the labels of positions no longer held: once fewer than half of the labels
    /// added since the build are still in use (every added node takes one, and unloads and
    /// edits free them), renumbers those in use after the build's `built` labels (which
    /// keep theirs) into a fresh union-find with the same sets and the same rank proofs.
    /// Local to the index's own tables (no cell or graph is read), once per doubling, so
    /// its cost spreads over the additions that made it due.
    fn compact(&mut self, built: usize) {
        let held = built + self.added.len();
        if self.sets.parent.len() <= 2 * held + 64 {
            return;
        }
        let mut sets = DisjointSets::new(held);
        let mut unranked = vec![false; held];
        // The new label standing for each old set, by its old root.
        let mut stands_for = vec![u32::MAX; self.sets.parent.len()];
        let mut join = |sets: &mut DisjointSets, old: &mut DisjointSets, label: u32, new: u32| {
            let root = old.find(label) as usize;
            if stands_for[root] == u32::MAX {
                stands_for[root] = new;
            } else {
                sets.union(stands_for[root], new);
            }
        };
        for label in 0..built as u32 {
            join(&mut sets, &mut self.sets, label, label);
        }
        for (new, label) in (built as u32..).zip(self.added.labels_mut()) {
            join(&mut sets, &mut self.sets, *label, new);
            *label = new;
        }
        for (root, &new) in stands_for.iter().enumerate() {
            if new != u32::MAX {
                let now = sets.find(new) as usize;
                unranked[now] = self.unranked[root];
            }
        }
        self.sets = sets;
        self.unranked = unranked;
    }
}

impl ReachIndex {
    /// [`ReachIndex::reach`] after local updates: positions are checked against the world
    /// (a removed node keeps its built label), labels compared by their roots, and ranks
    /// trusted only between built positions of a region no update touched.
    pub(super) fn reach_live<W: VersionedWorld + ?Sized>(
        &self,
        live: &Live,
        world: &W,
        start: IVec3,
        goal: IVec3,
    ) -> Reach {
        let label = |feet: IVec3| -> Option<(u32, Option<usize>)> {
            // Positions beyond the build's bounds (columns loaded since) were added since.
            if !self.agent.is_valid_position(world, feet) {
                return None;
            }
            match live.added.get(feet) {
                Some(label) => Some((label, None)),
                None => self
                    .slot_of(feet)
                    .map(|slot| (self.labels[slot], Some(slot))),
            }
        };
        let (Some((a, slot_a)), Some((b, slot_b))) = (label(start), label(goal)) else {
            return Reach::Unknown;
        };
        let root = live.sets.root(a);
        if root != live.sets.root(b) {
            return Reach::Separate;
        }
        match (slot_a, slot_b) {
            (Some(a), Some(b)) if !live.unranked[root as usize] => {
                let (ra, rb) = (self.ranks[a], self.ranks[b]);
                if ra < rb || self.second_ranks[ra as usize] < self.second_ranks[rb as usize] {
                    Reach::OneWay
                } else {
                    Reach::SameRegion
                }
            }
            _ => Reach::SameRegion,
        }
    }

    /// Brings the index up to date after `update`, which `graph` (a walk graph of `world`
    /// for the index's agent, kept up to date since the index was built) reported: without
    /// relabelling the world. Each added node gets a fresh region label; each changed node
    /// (added ones included) joins the regions of every node it now has a move to. Removed
    /// nodes change nothing: regions only ever merge, so they may hold positions that are no
    /// longer connected (answered [`Reach::SameRegion`], "maybe"), never split a connected
    /// pair. A region an added node or a changed move touches no longer proves one-way
    /// cases. Nodes of columns loaded past the bounds of the build are labelled the same way
    /// as any added node. The index then describes the version and the bounds the graph
    /// describes (the version: the world's, for a graph of a world without a watch).
    ///
    /// Counts ([`ReachIndex::region_count`], [`ReachIndex::feet_count`],
    /// [`ReachIndex::part_count`]) and [`ReachIndex::region_of`] describe the last build.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the graph was built for another agent than the index,
    /// or when the update names a node the index cannot place (the graph
    /// was not kept up to date alongside the index); [`Error::OtherWorld`] for a graph of
    /// another world. After an error the index keeps the version it had, so it answers
    /// [`Reach::Unknown`] for the changed world until rebuilt.
    pub fn apply_update<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        graph: &NavGraph,
        update: &GraphUpdate,
    ) -> Result<()> {
        if *graph.agent() != self.agent {
            return Err(Error::InvalidSetting(format!(
                "the walk graph was built for agent {:?}, the index for {:?}",
                graph.agent(),
                self.agent,
            )));
        }
        graph.check_world(world, "walk graph")?;
        if world.world_id() != self.world {
            return Err(Error::OtherWorld {
                what: "reachability index (given another world's graph update)",
                built: self.world.get(),
                given: Some(world.world_id().get()),
            });
        }
        let mut live = self
            .live
            .take()
            .unwrap_or_else(|| Box::new(Live::new(self.region_sizes.len())));
        let result = self.follow(&mut live, graph, update);
        // Merged labels stay sound whatever happened; only a complete update moves the
        // version on, so after an error the index answers `Unknown` until rebuilt.
        self.live = Some(live);
        result?;
        self.version = graph.world_version().unwrap_or(world.version());
        self.world_bounds = graph.bounds();
        Ok(())
    }

    /// The labelling half of [`ReachIndex::apply_update`].
    fn follow(&self, live: &mut Live, graph: &NavGraph, update: &GraphUpdate) -> Result<()> {
        // What unloads and edits removed is given back: a position no longer valid needs no
        // label (queries check validity first), and one valid again gets a fresh one below.
        for &feet in &update.removed_feet {
            live.added.remove(feet);
        }
        for &id in &update.added {
            let label = live.sets.push();
            live.unranked.push(true);
            live.added.insert(graph.feet(id), label);
        }
        live.added.trim(
            update
                .removed_feet
                .iter()
                .copied()
                .chain(update.added.iter().map(|&id| graph.feet(id))),
        );
        let costs = MoveCosts::default();
        let mut targets = Vec::new();
        for &id in &update.changed {
            let from = self.live_label(live, graph.feet(id))?;
            live.unrank(from);
            targets.clear();
            graph.for_each_move(id, &costs, |step| targets.push(step.feet));
            for &to in &targets {
                let to = self.live_label(live, to)?;
                live.union(from, to);
            }
        }
        live.updates += 1;
        live.compact(self.region_sizes.len());
        Ok(())
    }

    /// The label of `feet`, a live node of the graph the index follows: added since the
    /// build, or else labelled by it.
    fn live_label(&self, live: &Live, feet: IVec3) -> Result<u32> {
        match live.added.get(feet) {
            Some(label) => Ok(label),
            None => self
                .slot_of(feet)
                .map(|slot| self.labels[slot])
                .ok_or_else(|| {
                    Error::InvalidSetting(format!(
                        "the graph update names the feet position {:?}, which the index \
                         never labelled: the graph was not kept up to date alongside it",
                        feet.to_array()
                    ))
                }),
        }
    }

    /// How many local updates ([`ReachIndex::apply_update`]) the index took since it was
    /// built: 0 for a fresh build.
    #[must_use]
    pub fn local_updates(&self) -> u64 {
        self.live.as_ref().map_or(0, |live| live.updates)
    }
}

/// Union by size with path halving.
#[derive(Debug, Clone)]
pub(super) struct DisjointSets {
    pub(super) parent: Vec<u32>,
    size: Vec<u32>,
}

impl DisjointSets {
    pub(super) fn new(count: usize) -> Self {
        Self {
            parent: (0..count as u32).collect(),
            size: vec![1; count],
        }
    }

    /// The root of `x` without shortening paths, for readers (union by size keeps every
    /// path within `log2` of the set's size).
    fn root(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// A fresh set of its own; returns its label.
    fn push(&mut self) -> u32 {
        let label = self.parent.len() as u32;
        self.parent.push(label);
        self.size.push(1);
        label
    }

    pub(super) fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grandparent = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grandparent;
            x = grandparent;
        }
        x
    }

    pub(super) fn union(&mut self, a: u32, b: u32) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a as usize] < self.size[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b as usize] = a;
        self.size[a as usize] += self.size[b as usize];
    }
}
