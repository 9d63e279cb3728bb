//! Which portals can reach each other at all: the weakly connected components of the overlay
//! (portals joined inside a cell when the table has a route either way, and across borders by
//! the graph's moves), labelled by a union-find over the portals. Rebuilding the labels reads
//! the overlay only (its portals and their moves across borders), never the whole walk graph.

/// A union-find over overlay slots.
#[derive(Debug, Clone, Default)]
pub(super) struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    pub(super) fn reset(&mut self, len: usize) {
        self.parent.clear();
        self.parent.extend(0..len as u32);
    }

    pub(super) fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    pub(super) fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (low, high) = (a.min(b), a.max(b));
            self.parent[high as usize] = low;
        }
    }
}

/// The component label of every overlay slot, and whether they still describe the overlay.
#[derive(Debug, Clone, Default)]
pub(super) struct Components {
    /// The label of each slot (its component's smallest slot); meaningless for unused
    /// slots.
    pub(super) labels: Vec<u32>,
    stale: bool,
}

impl Components {
    /// Notes that a cell changed: the labels no longer answer until rebuilt.
    pub(super) fn mark_stale(&mut self) {
        self.stale = true;
    }

    pub(super) fn is_stale(&self) -> bool {
        self.stale
    }

    /// Takes the labels of a fresh union-find over all slots.
    pub(super) fn set(&mut self, union_find: &mut UnionFind, slots: usize) {
        self.labels.clear();
        self.labels
            .extend((0..slots as u32).map(|slot| union_find.find(slot)));
        self.stale = false;
    }

    pub(super) fn memory_bytes(&self) -> usize {
        self.labels.capacity() * 4
    }
}
