//! The records of the searches inside cells and windows: dense blocks of records indexed by
//! node id, handed out per query, in place of a hash map from node id to record.
//!
//! A search inside a window reaches a few thousand nodes of a graph of millions, so one
//! record per node id (as graph A* keeps) would cost 16 bytes per id per search for a few
//! thousand used, and a hash map paid a hash and a probe per read: 40% of the abstraction's
//! query instructions at 2048 went to the windows' hash map. The graph numbers its nodes in
//! pages of 256 ids, one home page per chunk column (chained nodes share further pages), so
//! the ids a window reaches fall in a few blocks of [`BLOCK`] ids: a block table read by
//! `id / BLOCK` (stamped per query, so it is never cleared) leads to a block of records in a
//! pool that grows to the most blocks one query used. The block size is only a matter of
//! locality: any size gives the same answers.

/// Ids per block of records.
const BLOCK_SHIFT: u32 = 8;
const BLOCK: usize = 1 << BLOCK_SHIFT;

/// The cost of a record no search reached.
const UNREACHED: u64 = u64::MAX;

/// What a search inside cells knows of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reached {
    /// The cost from the source; [`UNREACHED`] for a node not reached.
    pub(super) g: u64,
    /// The node it was reached from (the node it leads to, backwards);
    /// [`crate::graph::NO_NODE`] for the source.
    pub(super) parent: u32,
    /// Expanded at this `g`: an older entry of the node in the open set is stale.
    pub(super) done: bool,
}

impl Reached {
    const NONE: Self = Self {
        g: UNREACHED,
        parent: crate::graph::NO_NODE,
        done: false,
    };
}

/// Records by node id for one search at a time (see the module docs).
#[derive(Debug, Clone, Default)]
pub(super) struct Records {
    /// Per block of ids: the query that last used it and its block in `pool`.
    table: Vec<(u32, u32)>,
    pool: Vec<[Reached; BLOCK]>,
    /// Blocks of `pool` handed out in this query.
    used: usize,
    stamp: u32,
}

impl Records {
    /// Forgets every record, for a new search.
    pub(super) fn clear(&mut self) {
        self.used = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // A stamp used again after 2^32 searches would revive old blocks.
            self.table.fill((0, 0));
            self.stamp = 1;
        }
    }

    /// The record of `id`, if this search reached it.
    #[inline]
    pub(super) fn get(&self, id: u32) -> Option<&Reached> {
        let &(stamp, block) = self.table.get((id >> BLOCK_SHIFT) as usize)?;
        if stamp != self.stamp {
            return None;
        }
        let record = &self.pool[block as usize][id as usize & (BLOCK - 1)];
        (record.g != UNREACHED).then_some(record)
    }

    /// The record of `id`, at cost `u64::MAX` when not reached yet; its block handed out on
    /// first use in this search.
    #[inline]
    pub(super) fn entry(&mut self, id: u32) -> &mut Reached {
        let index = (id >> BLOCK_SHIFT) as usize;
        if index >= self.table.len() {
            self.table.resize(index + 1, (0, 0));
        }
        let (stamp, block) = self.table[index];
        let block = if stamp == self.stamp {
            block as usize
        } else {
            let block = self.used;
            self.used += 1;
            if block == self.pool.len() {
                self.pool.push([Reached::NONE; BLOCK]);
            } else {
                self.pool[block].fill(Reached::NONE);
            }
            // Blocks number at most the ids' blocks, which fit `u32` as ids do.
            self.table[index] = (self.stamp, block as u32);
            block
        };
        &mut self.pool[block][id as usize & (BLOCK - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_within_a_search_and_vanish_after_clear() {
        let mut records = Records::default();
        records.clear();
        assert!(records.get(5).is_none());
        let ids = [0, 5, 255, 256, 70_000, 3, 1 << 20];
        for (n, &id) in ids.iter().enumerate() {
            *records.entry(id) = Reached {
                g: n as u64 * 10,
                parent: id + 1,
                done: n % 2 == 0,
            };
        }
        for (n, &id) in ids.iter().enumerate() {
            let record = records.get(id).expect("written in this search");
            assert_eq!((record.g, record.parent), (n as u64 * 10, id + 1));
            assert_eq!(record.done, n % 2 == 0);
        }
        // Neighbours of written ids in the same block were not reached.
        assert!(records.get(4).is_none());
        assert!(records.get(257).is_none());
        assert!(records.get(u32::MAX - 1).is_none());
        // A new search reuses the blocks, cleared.
        records.clear();
        for &id in &ids {
            assert!(records.get(id).is_none(), "id {id} survived a clear");
        }
        assert_eq!(records.entry(256).g, u64::MAX);
        records.entry(256).g = 7;
        assert_eq!(records.get(256).map(|r| r.g), Some(7));
        assert!(records.get(0).is_none(), "id 0 revived by its reused block");
        assert_eq!(records.used, 1);
    }

    #[test]
    fn stamps_wrapping_around_clear_the_table() {
        let mut records = Records::default();
        records.clear();
        records.entry(9).g = 1;
        records.stamp = u32::MAX;
        records.clear();
        assert_eq!(records.stamp, 1);
        assert!(records.get(9).is_none());
    }
}
