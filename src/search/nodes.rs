//! The node table of a walker's search: from a feet position to its node index.
//!
//! Pages of 16x4x16 cells found through a small hash map of page keys, with the last page
//! used cached: a search over terrain touches cells in a few thin regions, so memory stays
//! proportional to the search. (Fliers and swimmers keep their nodes in the cells of a
//! [`super::cells::CellTable`] instead.)
//!
//! Slots are never cleared between searches. Each search numbers its nodes from a new
//! *base*, above every number an earlier search wrote, and a slot holds a node of the current
//! search only when its value minus the base is below the number of nodes made so far. So a
//! recycled page is not wiped per query; only when the numbers run out, after about
//! 4 billion nodes in all, is every slot reset once.

use ahash::AHashMap;
use glam::IVec3;

use super::core::{Offer, RecordTable};
use crate::world::key::{pack, unpack};

/// The most nodes one search may number: the caller stops a search before it makes more.
pub(crate) const MAX_SEARCH_NODES: usize = 1 << 26;

/// Pages are 16 cells wide along x and z and 4 cells tall: searches over terrain touch a
/// thin surface, so tall pages would be mostly empty memory.
const PAGE_SHIFT: i32 = 4;
const PAGE_MASK: i32 = (1 << PAGE_SHIFT) - 1;
const PAGE_Y_SHIFT: i32 = 2;
const PAGE_Y_MASK: i32 = (1 << PAGE_Y_SHIFT) - 1;
const PAGE_CELLS: usize = 1 << (2 * PAGE_SHIFT + PAGE_Y_SHIFT);
/// The value of a slot that never held a node (or was reset): never a node of any search,
/// since bases stay below `u32::MAX - MAX_SEARCH_NODES`.
const NO_NODE: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub(crate) struct NodeTable {
    pages: Vec<Box<[u32; PAGE_CELLS]>>,
    in_use: usize,
    directory: AHashMap<u64, u32>,
    last_key: u64,
    last_page: u32,
    /// The number of this search's first node: slots hold `base + index`.
    base: u32,
}

#[inline]
fn page_key(p: IVec3) -> u64 {
    pack(IVec3::new(
        p.x >> PAGE_SHIFT,
        p.y >> PAGE_Y_SHIFT,
        p.z >> PAGE_SHIFT,
    ))
}

#[inline]
fn slot_index(p: IVec3) -> usize {
    (((p.x & PAGE_MASK) << (PAGE_SHIFT + PAGE_Y_SHIFT))
        | ((p.z & PAGE_MASK) << PAGE_Y_SHIFT)
        | (p.y & PAGE_Y_MASK)) as usize
}

impl Default for NodeTable {
    fn default() -> Self {
        Self {
            pages: Vec::new(),
            in_use: 0,
            directory: AHashMap::new(),
            // Page coordinates are positions divided by 16 or 4, so their packed key never
            // has all 64 bits set: the cache starts empty.
            last_key: u64::MAX,
            last_page: 0,
            base: 0,
        }
    }
}

impl NodeTable {
    /// Starts a search, the last search having made `previous` nodes: forgets every entry,
    /// keeping the memory.
    pub(crate) fn start(&mut self, previous: usize) {
        self.in_use = 0;
        self.directory.clear();
        self.last_key = u64::MAX;
        self.last_page = 0;

        let next = u64::from(self.base) + previous as u64;
        if next + MAX_SEARCH_NODES as u64 >= u64::from(NO_NODE) {
            // The numbers ran out: every slot forgets its node, once per 4 billion nodes.
            for page in &mut self.pages {
                page.fill(NO_NODE);
            }
            self.base = 0;
        } else {
            self.base = next as u32;
        }
    }

    /// The number slots hold for this search's first node: node `i` is stored as
    /// `base + i`, and a slot value `v` names node `v - base` (wrapping) when that is below
    /// the number of nodes made so far.
    #[inline]
    pub(crate) fn base(&self) -> u32 {
        self.base
    }

    /// The slot of `p`, created if its page did not exist yet. `p` must be in the key range.
    #[expect(
        clippy::inline_always,
        reason = "left out of line by the compiler, the walker's search on the terrain queries of `compare` took 6% more instructions"
    )]
    #[inline(always)]
    pub(crate) fn slot(&mut self, p: IVec3) -> &mut u32 {
        let key = page_key(p);
        if key != self.last_key {
            self.last_page = match self.directory.get(&key) {
                Some(&page) => page,
                None => self.new_page(key),
            };
            self.last_key = key;
        }
        &mut self.pages[self.last_page as usize][slot_index(p)]
    }

    #[cold]
    fn new_page(&mut self, key: u64) -> u32 {
        let page = self.in_use;
        if page == self.pages.len() {
            self.pages.push(Box::new([NO_NODE; PAGE_CELLS]));
        }
        // A recycled page keeps its slots: they hold numbers of earlier searches.
        self.in_use += 1;
        self.directory.insert(key, page as u32);
        page as u32
    }
}

/// Bit of [`Node::link`] set while the node is expanded (closed); a cheaper route found later
/// clears it (reopens the node).
const CLOSED: u32 = 1 << 31;
/// The parent's index in [`Node::link`].
const PARENT_MASK: u32 = CLOSED - 1;
/// The parent link of the start node.
pub(crate) const NO_PARENT: u32 = PARENT_MASK;
/// The most nodes one walker's search may create: 67 million, 1.3 GB of node records alone.
/// A search that reaches it stops with the best partial route.
pub(crate) const MAX_NODES: usize = 1 << 26;
const _: () = assert!(MAX_NODES <= MAX_SEARCH_NODES && MAX_NODES < NO_PARENT as usize);

/// One position a walker's search reached: 20 bytes, so that a search of millions of nodes
/// stays small. No heuristic value is stored: it is computed when the node is pushed, and
/// the open set holds `f`.
#[derive(Debug, Clone, Copy)]
#[repr(C, packed(4))]
pub(crate) struct Node {
    /// The feet position, [`pack`]ed: every node is in the key range.
    key: u64,
    /// The cost of the best route found to it.
    g: u64,
    /// The parent's index ([`NO_PARENT`] for the start) and [`CLOSED`].
    link: u32,
}

impl Node {
    #[inline]
    pub(crate) fn feet(self) -> IVec3 {
        unpack(self.key)
    }

    #[inline]
    fn closed(self) -> bool {
        self.link & CLOSED != 0
    }

    #[inline]
    fn parent(self) -> u32 {
        self.link & PARENT_MASK
    }
}

/// The records of a walker's search: nodes in a list, in the order the search made them,
/// found from their feet positions through a [`NodeTable`]. The record table of searches
/// over positions packed into keys (unbounded worlds included).
#[derive(Debug, Clone, Default)]
pub(crate) struct PositionTable {
    nodes: Vec<Node>,
    slots: NodeTable,
}

impl PositionTable {
    /// Starts a search from `start` (in the key range): forgets the last one's nodes, keeping
    /// the memory, and makes the start node 0.
    pub(crate) fn start(&mut self, start: IVec3) -> u32 {
        self.slots.start(self.nodes.len());
        self.nodes.clear();
        self.nodes.push(Node {
            key: pack(start),
            g: 0,
            link: NO_PARENT,
        });
        *self.slots.slot(start) = self.slots.base();
        0
    }

    /// The node number `node`.
    #[inline]
    pub(crate) fn node(&self, node: u32) -> Node {
        self.nodes[node as usize]
    }

    /// The positions of the closed nodes.
    pub(crate) fn closed(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.nodes.iter().filter(|n| n.closed()).map(|n| n.feet())
    }

    /// The route from the start to `end`, backwards, and its cost.
    pub(crate) fn route(&self, end: u32) -> (Vec<IVec3>, u64) {
        let mut path = Vec::new();
        let mut node = end;
        while node != NO_PARENT {
            let n = self.nodes[node as usize];
            path.push(n.feet());
            node = n.parent();
        }
        (path, self.nodes[end as usize].g)
    }
}

impl RecordTable for PositionTable {
    type Record = Node;
    /// A successor's feet position (in the key range).
    type At = IVec3;
    /// The parent is all a walker's record keeps of the move.
    type Via = ();

    #[inline]
    fn open_record(&mut self, node: u32) -> Option<Node> {
        let record = self.nodes[node as usize];
        (!record.closed()).then_some(record)
    }

    #[inline]
    fn g(record: Node) -> u64 {
        record.g
    }

    #[inline]
    fn close(&mut self, node: u32) {
        self.nodes[node as usize].link |= CLOSED;
    }

    #[expect(
        clippy::inline_always,
        reason = "left out of line by the compiler, the walker's search on the terrain queries of `compare` took 9% more instructions"
    )]
    #[inline(always)]
    fn offer(&mut self, feet: IVec3, g: u64, parent: u32, (): ()) -> Offer {
        let base = self.slots.base();
        let slot = self.slots.slot(feet);
        // The slot names a node of this search when it holds `base + index` for an existing
        // node (see `NodeTable::base`).
        let known = slot.wrapping_sub(base);
        if known as usize >= self.nodes.len() {
            if self.nodes.len() >= MAX_NODES {
                return Offer::Full;
            }
            let index = self.nodes.len() as u32;
            *slot = base + index;
            self.nodes.push(Node {
                key: pack(feet),
                g,
                link: parent,
            });
            return Offer::Taken(index);
        }
        let record = &mut self.nodes[known as usize];
        if g >= record.g {
            return Offer::Kept;
        }
        // A cheaper route: the node is open again, with a new parent.
        record.g = g;
        record.link = parent;
        Offer::Taken(known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the slot of `p` names one of the `count` nodes made so far.
    fn names_a_node(table: &mut NodeTable, p: IVec3, count: usize) -> bool {
        let base = table.base();
        (table.slot(p).wrapping_sub(base) as usize) < count
    }

    /// Distinct positions have distinct slots, across page edges, and a slot keeps what was
    /// written to it.
    #[test]
    fn distinct_positions_have_distinct_slots() {
        let mut table = NodeTable::default();
        table.start(0);
        let mut next = table.base();
        let mut seen = std::collections::HashMap::new();
        for x in -5..20 {
            for y in -6..6 {
                for z in 3..20 {
                    let p = IVec3::new(x, y, z);
                    assert_eq!(*table.slot(p), NO_NODE, "{p}");
                    *table.slot(p) = next;
                    seen.insert(p, next);
                    next += 1;
                }
            }
        }
        for (p, value) in &seen {
            assert_eq!(*table.slot(*p), *value, "{p}");
        }
    }

    /// A new search forgets the nodes of the last one without clearing a slot, and when the
    /// numbers run out every slot is reset.
    #[test]
    fn slots_of_earlier_searches_name_no_node() {
        let mut table = NodeTable::default();
        let (first, second) = (IVec3::new(2, 3, 4), IVec3::new(100, 3, 4));
        for round in 0..2 {
            if round == 1 {
                // Close to the end of the numbers: the next start resets every slot.
                table.base = NO_NODE - MAX_SEARCH_NODES as u32 - 1;
            }
            table.start(0);
            *table.slot(first) = table.base();
            *table.slot(second) = table.base() + 1;
            assert!(names_a_node(&mut table, first, 2));
            assert!(names_a_node(&mut table, second, 2));
            table.start(2);
            if round == 1 {
                assert_eq!(table.base(), 0);
            }
            for p in [first, second, IVec3::new(1, 1, 1)] {
                assert!(!names_a_node(&mut table, p, MAX_SEARCH_NODES), "{p}");
            }
        }
    }
}
