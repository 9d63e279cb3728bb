//! [`Queue`]: D* Lite's priority queue, a 4-ary heap indexed by node id.
//!
//! D* Lite changes the key of a queued node often (a node offered a cheaper cost-to-goal by
//! several of its successors in turn, a node whose key is refreshed after the start moved)
//! and takes nodes off the queue when they become consistent. A heap with lazy deletion
//! pays for each change with a new entry, a later pop of the stale one and a read of the
//! node's state to recognise it as stale: re-pushes were 30% of D* Lite's instructions. Here
//! each node has at most one entry, found through a position array, and a new key moves
//! that entry up or down in place. Four children per entry make the heap half as deep as a
//! binary one, and the four children of an entry share a cache line or two.

use crate::graph::NodeId;

/// Children per heap entry.
const ARITY: usize = 4;

/// No position: the node is not queued.
const ABSENT: u32 = u32::MAX;

/// One queued node: its key, ordered by `K: Ord`, and what else D* Lite keeps with it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry<K> {
    pub(super) key: K,
    pub(super) node: NodeId,
    /// The epoch (start position) the key was computed in.
    pub(super) epoch: u32,
}

/// A min-heap of nodes by key with at most one entry per node; see the [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct Queue<K> {
    heap: Vec<Entry<K>>,
    /// `position[node]`: the index of the node's entry in `heap`, or [`ABSENT`].
    position: Vec<u32>,
}

impl<K> Default for Queue<K> {
    fn default() -> Self {
        Self {
            heap: Vec::new(),
            position: Vec::new(),
        }
    }
}

impl<K: Ord + Copy> Queue<K> {
    /// Empties the queue and makes room for node ids below `bound`.
    pub(super) fn reset(&mut self, bound: usize) {
        self.heap.clear();
        self.position.clear();
        // Room for updates to add a quarter more ids without copying the positions, a cost
        // better paid when planning than on a replan.
        self.position.reserve(bound + bound / 4 + 1024);
        self.position.resize(bound, ABSENT);
    }

    /// Makes room for node ids below `bound`, keeping the entries.
    pub(super) fn grow(&mut self, bound: usize) {
        if self.position.len() < bound {
            self.position.resize(bound, ABSENT);
        }
    }

    /// Sets the epoch of every entry to `epoch`.
    pub(super) fn mark_epochs(&mut self, epoch: u32) {
        for entry in &mut self.heap {
            entry.epoch = epoch;
        }
    }

    /// The entry with the smallest key.
    #[inline]
    pub(super) fn peek(&self) -> Option<&Entry<K>> {
        self.heap.first()
    }

    /// The entry of `node`, when it is queued.
    #[inline]
    pub(super) fn get(&self, node: NodeId) -> Option<&Entry<K>> {
        match self.position.get(node as usize) {
            Some(&at) if at != ABSENT => Some(&self.heap[at as usize]),
            _ => None,
        }
    }

    /// Queues `node` with `key`, or moves its entry to `key` when it is queued already.
    #[inline]
    pub(super) fn set(&mut self, node: NodeId, key: K, epoch: u32) {
        let entry = Entry { key, node, epoch };
        let at = self.position[node as usize];
        if at == ABSENT {
            self.heap.push(entry);
            self.sift_up(self.heap.len() - 1, entry);
            return;
        }
        let at = at as usize;
        if key < self.heap[at].key {
            self.sift_up(at, entry);
        } else {
            self.sift_down(at, entry);
        }
    }

    /// Takes `node` off the queue, when it is queued.
    #[inline]
    pub(super) fn remove(&mut self, node: NodeId) {
        let at = self.position[node as usize];
        if at == ABSENT {
            return;
        }
        self.position[node as usize] = ABSENT;
        let Some(last) = self.heap.pop() else {
            return;
        };
        let at = at as usize;
        if at == self.heap.len() {
            return;
        }
        if last.key < self.heap[at].key {
            self.sift_up(at, last);
        } else {
            self.sift_down(at, last);
        }
    }

    /// Places `entry` at `at` or above it, moving larger parents down.
    #[inline]
    fn sift_up(&mut self, mut at: usize, entry: Entry<K>) {
        while at > 0 {
            let parent = (at - 1) / ARITY;
            let above = self.heap[parent];
            if above.key <= entry.key {
                break;
            }
            self.heap[at] = above;
            self.position[above.node as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = entry;
        self.position[entry.node as usize] = at as u32;
    }

    /// Places `entry` at `at` or below it, moving smaller children up.
    #[inline]
    fn sift_down(&mut self, mut at: usize, entry: Entry<K>) {
        let len = self.heap.len();
        loop {
            let first = at * ARITY + 1;
            if first >= len {
                break;
            }
            let mut best = first;
            for child in first + 1..(first + ARITY).min(len) {
                if self.heap[child].key < self.heap[best].key {
                    best = child;
                }
            }
            let below = self.heap[best];
            if entry.key <= below.key {
                break;
            }
            self.heap[at] = below;
            self.position[below.node as usize] = at as u32;
            at = best;
        }
        self.heap[at] = entry;
        self.position[entry.node as usize] = at as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;

    /// A small deterministic generator (xorshift), so that the test needs no feature.
    fn below(state: &mut u64, bound: u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state % bound
    }

    /// Random sets, moves and removals, checked after each step against a plain array of
    /// each node's key: the peeked entry always has the smallest key (ties by any node), and
    /// `get` answers every node's key.
    #[test]
    fn queue_matches_a_plain_array_of_keys() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let nodes = 64u32;
        let mut queue: Queue<u64> = Queue::default();
        queue.reset(nodes as usize);
        let mut keys: Vec<Option<u64>> = vec![None; nodes as usize];
        for step in 0..20_000 {
            let node = below(&mut rng, u64::from(nodes)) as u32;
            match below(&mut rng, 3) {
                0 | 1 => {
                    let key = below(&mut rng, 50);
                    queue.set(node, key, 0);
                    keys[node as usize] = Some(key);
                }
                _ => {
                    queue.remove(node);
                    keys[node as usize] = None;
                }
            }
            let smallest = keys.iter().flatten().min().copied();
            assert_eq!(queue.peek().map(|e| e.key), smallest, "step {step}");
            for (id, key) in keys.iter().enumerate() {
                assert_eq!(queue.get(id as u32).map(|e| e.key), *key, "step {step}");
            }
        }
    }
}
