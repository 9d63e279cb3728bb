//! The open set of the landmark searches: Dial's buckets in a ring (one bucket per cost
//! modulo [`SPAN`]), with a binary heap for the few entries further ahead than the ring
//! reaches.
//!
//! Dijkstra over the portals pushes costs at most one edge above the cost last popped, and
//! the abstraction's edges are small integers (tens for a transition, a few hundred inside a
//! cell), so nearly every push lands in the ring, each entry is moved once, and no key is
//! compared. The search core's radix heap moved most entries twice (an edge of a few hundred
//! lands above its lowest level) and took a third of the searches' instructions.
//!
//! A bucket is a list threaded through one array of entries, not a vector of its own: the
//! searches took 0.98 G instructions of the build at 1024 on one thread, 1.06 G with a vector
//! per bucket (callgrind on `'*landmarks*shortest*'`, `long --size 1024 --pairs 1 --edits 0`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The costs the ring spans ahead of the cost last popped: a power of two above nearly every
/// abstract edge's cost.
const SPAN: u64 = 1024;

/// The end of a bucket's list.
const NIL: u32 = u32::MAX;

/// The open set (see the [module docs](self)). Entries must not cost less than the cost
/// last popped, as in Dijkstra's search.
#[derive(Debug, Clone)]
pub(super) struct Ring {
    /// `heads[g % SPAN]`: the place in `entries` of the last entry of cost `g` pushed (its
    /// bucket a list threaded through `entries`), for `g` from `at` to `at + SPAN - 1`;
    /// [`NIL`] for none.
    heads: Vec<u32>,
    /// Every entry pushed since the reset, `(node, the entry below it in its bucket)`.
    entries: Vec<(u32, u32)>,
    /// The cost of the entries popped last.
    at: u64,
    /// The entries in the buckets.
    pending: usize,
    /// The entries of cost `at + SPAN` and above, cheapest first.
    ahead: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Default for Ring {
    fn default() -> Self {
        Self {
            heads: vec![NIL; SPAN as usize],
            entries: Vec::new(),
            at: 0,
            pending: 0,
            ahead: BinaryHeap::new(),
        }
    }
}

impl Ring {
    /// Empties the ring, keeping its memory, for a search from cost 0.
    pub(super) fn reset(&mut self) {
        if self.pending > 0 {
            self.heads.fill(NIL);
        }
        self.entries.clear();
        self.ahead.clear();
        self.at = 0;
        self.pending = 0;
    }

    /// Adds `node` at cost `g`, at least the cost last popped.
    #[inline]
    pub(super) fn push(&mut self, g: u64, node: u32) {
        debug_assert!(g >= self.at, "a cost below the last one popped");
        if g - self.at < SPAN {
            self.link(g, node);
        } else {
            self.ahead.push(Reverse((g, node)));
        }
    }

    /// Puts `node` in the bucket of cost `g`, which the ring spans.
    #[inline]
    fn link(&mut self, g: u64, node: u32) {
        let head = &mut self.heads[(g % SPAN) as usize];
        self.entries.push((node, *head));
        *head = (self.entries.len() - 1) as u32;
        self.pending += 1;
    }

    /// Removes a cheapest entry, `(cost, node)`.
    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u64, u32)> {
        loop {
            let head = &mut self.heads[(self.at % SPAN) as usize];
            if *head != NIL {
                let (node, below) = self.entries[*head as usize];
                *head = below;
                self.pending -= 1;
                return Some((self.at, node));
            }
            if self.pending == 0 {
                // Nothing in the ring: on to the cheapest entry ahead.
                let &Reverse((g, _)) = self.ahead.peek()?;
                self.at = g;
            } else {
                self.at += 1;
            }
            self.take_ahead();
        }
    }

    /// Moves the entries ahead that the ring now spans into it.
    #[inline]
    fn take_ahead(&mut self) {
        while let Some(&Reverse((g, node))) = self.ahead.peek() {
            if g - self.at >= SPAN {
                break;
            }
            self.ahead.pop();
            self.link(g, node);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Ring, SPAN};

    /// Against a sorted list, Dijkstra's way (every push at least the cost last popped, some
    /// far beyond the ring, some after the ring ran empty): the same costs come out in order,
    /// each entry once, and a reset ring starts again from 0.
    #[test]
    fn pops_costs_in_order_pushed_dijkstra_s_way() {
        let mut state = 0x853c_49e6_748f_ea9b_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut ring = Ring::default();
        for round in 0..20 {
            ring.reset();
            let mut reference: Vec<(u64, u32)> = Vec::new();
            let mut popped = Vec::new();
            let mut last = 0;
            let mut node = 0;
            for step in 0..2_000 {
                let pushes = if step % 97 == 0 { 0 } else { next() % 4 };
                for _ in 0..pushes {
                    let ahead = match next() % 10 {
                        0 => SPAN + next() % (4 * SPAN),
                        1 => SPAN - 1,
                        _ => next() % 300,
                    };
                    ring.push(last + ahead, node);
                    reference.push((last + ahead, node));
                    node += 1;
                }
                if next() % 3 > 0 || pushes == 0 {
                    let Some((g, at)) = ring.pop() else {
                        assert!(reference.is_empty(), "round {round}: entries lost");
                        continue;
                    };
                    let lowest = reference.iter().map(|e| e.0).min().expect("an entry");
                    assert_eq!(g, lowest, "round {round}: not the cheapest");
                    let place = reference.iter().position(|&e| e == (g, at));
                    reference.swap_remove(place.expect("an entry pushed"));
                    popped.push(g);
                    last = g;
                }
            }
            while let Some((g, at)) = ring.pop() {
                let place = reference.iter().position(|&e| e == (g, at));
                reference.swap_remove(place.expect("an entry pushed"));
                assert!(g >= last);
                last = g;
            }
            assert!(reference.is_empty(), "round {round}: entries lost");
        }
    }
}
