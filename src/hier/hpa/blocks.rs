//! One cell of the inexact abstraction ([`HpaCell`]) and its table by blocks: the cell's
//! portals ordered so that those joined by some route inside the cell (either way) sit
//! together, and the table kept as one square block per such group. Pairs in different
//! groups have no route inside the cell, so nothing is lost: at 1024, 55% of the full
//! tables' entries were unreachable pairs, and the blocks hold 53% of the entries (cliffs,
//! water and caves split a chunk column's portals into a few groups).

use glam::IVec3;

use super::bytes::CellTable;
use super::{NO_SLOT, Transition};
use crate::graph::NodeId;
use crate::hier::cell::{CELL_SIDE, Chunk, UNREACHED};

/// [`HpaCell::exit_first`] of a portal with no exit that has a target.
const NO_EXIT: u8 = u8::MAX;
/// [`HpaCell::exit_first`] of a portal whose first exit lies past the places a byte holds.
const FIND_EXITS: u8 = u8::MAX - 1;

/// One group of a cell's portals: the first portal's place and the block's first entry.
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    start: u32,
    offset: u32,
}

/// One cell of the abstraction.
#[derive(Debug, Clone)]
pub(super) struct HpaCell {
    pub(super) chunk: Chunk,
    /// How many nodes of the graph lie in the cell: it is dropped when none is left (its
    /// column unloaded), so the abstraction's memory follows the loaded columns.
    pub(super) nodes: u32,
    /// The lowest and highest feet y any node of the cell has had: where to look for its
    /// border nodes again after an update.
    pub(super) y_low: i32,
    pub(super) y_high: i32,
    /// The transitions out of the cell, one or two per entrance, sorted by their source.
    pub(super) exits: Box<[Transition]>,
    /// Per exit, the overlay slot of its target portal ([`NO_SLOT`] for
    /// none): what the searches follow, found again whenever either cell's portals may have
    /// changed, and moved with the slots.
    pub(super) targets: Box<[u32]>,
    /// Per portal, the place in `exits` of its first exit (exits are sorted by their source,
    /// so a portal's are one run), [`NO_EXIT`] when none of them has a target, [`FIND_EXITS`]
    /// when the place is past a byte's room (then looked up). Found with the targets
    /// ([`HpaCell::resolve_exits`]): it spares the abstract search a binary search per
    /// expansion (see `search.rs`). Paid for by the targets in a box rather than a `Vec`.
    exit_first: Box<[u8]>,
    /// The ends of transitions in the cell, by group (see the [module docs](self)), each
    /// group in canonical order (local x, local z, feet y).
    pub(super) portals: Box<[NodeId]>,
    /// Their feet positions, read by the abstract search's heuristic (here rather than from
    /// the graph, whose nodes lie all over memory), packed: feet y less `feet_y` above bit 8,
    /// local x and z in 4 bits each (a third of an `IVec3`'s bytes).
    packed_feet: Box<[u32]>,
    /// The lowest feet y of the portals.
    feet_y: i32,
    /// The groups, by their first portal; a group ends where the next begins. Boxed, as the
    /// packed feet: 8 bytes less per cell than a `Vec` (0.26 MB at 2048 for both).
    groups: Box<[Group]>,
    /// The groups' blocks one after the other, each without its diagonal (a portal's route
    /// to itself, 0; 0.95 MB at 2048): in the block of a group of `m` portals from place `s`,
    /// entry `i * (m - 1) + j` is the cheapest route inside the cell from portal `s + i` to
    /// portal `s + j` for `j < i`, entry `i * (m - 1) + j - 1` for `j > i`. A byte each
    /// above a floor from the two portals' packed feet, exact (`bytes.rs`).
    table: CellTable,
    /// The first overlay slot the cell owns and how many it owns.
    pub(super) base: u32,
    pub(super) capacity: u32,
}

impl HpaCell {
    /// A cell without nodes, portals or exits, its height range `y` alone.
    pub(super) fn empty(chunk: Chunk, y: i32) -> Self {
        Self {
            chunk,
            nodes: 0,
            y_low: y,
            y_high: y,
            exits: Box::default(),
            targets: Box::default(),
            exit_first: Box::default(),
            portals: Box::default(),
            packed_feet: Box::default(),
            feet_y: 0,
            groups: Box::default(),
            table: CellTable::default(),
            base: 0,
            capacity: 0,
        }
    }

    /// Takes `portals` in canonical order and their full table (`table[i * n + j]`,
    /// [`UNREACHED`] for no route inside the cell), and keeps them by group, with their
    /// `feet`.
    pub(super) fn set_table(
        &mut self,
        portals: &[NodeId],
        table: &[u32],
        feet: impl Fn(NodeId) -> IVec3,
    ) {
        let n = portals.len();
        // Groups: the portals joined by a route either way, by union-find on the smallest place.
        let mut root: Vec<usize> = (0..n).collect();
        let find = |root: &mut Vec<usize>, mut at: usize| {
            while root[at] != at {
                root[at] = root[root[at]];
                at = root[at];
            }
            at
        };
        for i in 0..n {
            for j in 0..n {
                if table[i * n + j] != UNREACHED {
                    let (a, b) = (find(&mut root, i), find(&mut root, j));
                    root[a.max(b)] = a.min(b);
                }
            }
        }
        // By group (its smallest place), then in canonical order.
        let mut order: Vec<(usize, usize)> = (0..n).map(|i| (find(&mut root, i), i)).collect();
        order.sort_unstable();
        let mut groups = Vec::new();
        // At most `n * n` entries, reserved once: grown push by push, the two lists took 2.5 M
        // of the 549.1 M update instructions of 200 edits at 1024.
        let mut costs = Vec::with_capacity(n * n);
        // Per entry, the places of its two portals in the new order.
        let mut ends: Vec<(u32, u32)> = Vec::with_capacity(n * n);
        let mut first = 0;
        while first < n {
            let group = order[first].0;
            let last = first + order[first..].partition_point(|&(g, _)| g == group);
            groups.push(Group {
                start: first as u32,
                offset: costs.len() as u32,
            });
            for (from, &(_, i)) in (first..).zip(&order[first..last]) {
                for (to, &(_, j)) in (first..).zip(&order[first..last]) {
                    if j != i {
                        costs.push(table[i * n + j]);
                        ends.push((from as u32, to as u32));
                    }
                }
            }
            first = last;
        }
        self.groups = groups.into_boxed_slice();
        self.portals = order.iter().map(|&(_, i)| portals[i]).collect();
        let feet: Vec<IVec3> = self.portals.iter().map(|&id| feet(id)).collect();
        self.feet_y = feet.iter().map(|feet| feet.y).min().unwrap_or(0);
        self.packed_feet = feet
            .iter()
            .map(|feet| {
                // The graph keeps a column's feet heights within 16 bits of its origin, so
                // the height above the lowest portal fits the 24 bits above the local x, z.
                let height = (i64::from(feet.y) - i64::from(self.feet_y)).clamp(0, 0xff_ffff);
                let (x, z) = (feet.x.rem_euclid(CELL_SIDE), feet.z.rem_euclid(CELL_SIDE));
                (height as u32) << 8 | (x as u32) << 4 | z as u32
            })
            .collect();
        let packed = &self.packed_feet;
        self.table = CellTable::new(costs, |k| {
            let (from, to) = ends[k];
            (packed[from as usize], packed[to as usize])
        });
    }

    /// Takes the slots of the exits' targets (one per exit, [`NO_SLOT`] for none) and finds
    /// where each portal's exits start: call it whenever the exits, their targets or the
    /// portals' order changed.
    pub(super) fn resolve_exits(&mut self, targets: Box<[u32]>) {
        self.targets = targets;
        let exit_first = self
            .portals
            .iter()
            .map(|&portal| {
                let first = self.exits.partition_point(|exit| exit.from < portal);
                let live = self.exits[first..]
                    .iter()
                    .zip(&self.targets[first..])
                    .take_while(|(exit, _)| exit.from == portal)
                    .any(|(_, &target)| target != NO_SLOT);
                match u8::try_from(first) {
                    _ if !live => NO_EXIT,
                    Ok(first) if first < FIND_EXITS => first,
                    _ => FIND_EXITS,
                }
            })
            .collect();
        self.exit_first = exit_first;
    }

    /// The place in `exits` of the first exit of portal `local`, `None` when none of its
    /// exits has a target; its exits run from there while their source is the portal.
    #[inline]
    pub(super) fn first_exit(&self, local: usize) -> Option<usize> {
        match self.exit_first[local] {
            NO_EXIT => None,
            FIND_EXITS => {
                let portal = self.portals[local];
                Some(self.exits.partition_point(|exit| exit.from < portal))
            }
            first => Some(usize::from(first)),
        }
    }

    /// The feet position of portal `local`.
    #[inline]
    pub(super) fn feet(&self, local: usize) -> IVec3 {
        let packed = self.packed_feet[local];
        // The height is below 2^24, so it fits i32; back in i64 for heights near i32::MAX.
        let y = i64::from(self.feet_y) + i64::from(packed >> 8);
        IVec3::new(
            self.chunk[0] * CELL_SIDE + (packed >> 4 & 15) as i32,
            y as i32,
            self.chunk[1] * CELL_SIDE + (packed & 15) as i32,
        )
    }

    /// The group of portal `local`: its first portal's place, its size and its block's first
    /// entry.
    #[inline]
    fn group_of(&self, local: usize) -> (usize, usize, usize) {
        let index = self
            .groups
            .partition_point(|group| group.start as usize <= local)
            - 1;
        let group = self.groups[index];
        let end = self
            .groups
            .get(index + 1)
            .map_or(self.portals.len(), |next| next.start as usize);
        let start = group.start as usize;
        (start, end - start, group.offset as usize)
    }

    /// Visits the other portals that reach portal `local` inside the cell, `(portal, cost)`:
    /// its block's column, the group found once.
    pub(super) fn for_each_in_column(&self, local: usize, mut visit: impl FnMut(usize, u32)) {
        let (start, size, offset) = self.group_of(local);
        self.table.for_each_in_column(
            offset,
            local - start,
            &self.packed_feet[start..start + size],
            |row, cost| visit(start + row, cost),
        );
    }

    /// The cheapest route inside the cell from portal `from` to portal `to` (0 to itself);
    /// `None` for none.
    pub(super) fn cost(&self, from: usize, to: usize) -> Option<u32> {
        let (start, size, offset) = self.group_of(from);
        let column = to.checked_sub(start).filter(|&column| column < size)?;
        let row = from - start;
        if column == row {
            return Some(0);
        }
        self.table.get(
            offset + row * (size - 1) + column - usize::from(column > row),
            self.packed_feet[from],
            self.packed_feet[to],
        )
    }

    /// Visits the other portals reached inside the cell from portal `local`, `(portal, cost)`.
    #[inline]
    pub(super) fn for_each_in_row(&self, local: usize, mut visit: impl FnMut(usize, u32)) {
        let (start, size, offset) = self.group_of(local);
        let row = local - start;
        // The row without its own entry: the portals before it, then those after.
        let first = offset + row * (size - 1);
        let from = self.packed_feet[local];
        let feet = &self.packed_feet[start..start + size];
        self.table
            .for_each_in(first, from, &feet[..row], |column, cost| {
                visit(start + column, cost);
            });
        self.table
            .for_each_in(first + row, from, &feet[row + 1..], |column, cost| {
                visit(local + 1 + column, cost);
            });
    }

    /// Whether the cell's portals are `canonical` (in canonical order), whatever their groups.
    pub(super) fn has_portals(&self, canonical: &[NodeId]) -> bool {
        let mut mine = self.portals.to_vec();
        let mut theirs = canonical.to_vec();
        mine.sort_unstable();
        theirs.sort_unstable();
        mine == theirs
    }

    /// The bytes the cell holds.
    pub(super) fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.portals.len() * 4
            + self.packed_feet.len() * 4
            + self.exits.len() * std::mem::size_of::<Transition>()
            + self.targets.len() * 4
            + self.exit_first.len()
            + self.groups.len() * std::mem::size_of::<Group>()
            + self.table.memory_bytes()
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::HpaCell;
    use crate::hier::cell::UNREACHED;

    /// On random tables whose portals fall into groups (some pairs joined one way only,
    /// some costs too wide for 16 bits), every pair's cost reads back through the blocks,
    /// a row visits exactly the other portals reached and a column those reaching, and the blocks
    /// hold fewer entries.
    #[test]
    fn blocks_keep_every_cost_of_the_full_table() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut split = 0;
        for round in 0..60 {
            let n = 1 + (next() % 40) as usize;
            let groups = 1 + next() % 4;
            let group: Vec<u64> = (0..n).map(|_| next() % groups).collect();
            let wide = round % 5 == 0;
            let mut table = vec![UNREACHED; n * n];
            for i in 0..n {
                for j in 0..n {
                    if i == j {
                        table[i * n + j] = 0;
                    } else if group[i] == group[j] && !next().is_multiple_of(5) {
                        let high = if wide { 200_000 } else { 60_000 };
                        table[i * n + j] = 1 + (next() % high) as u32;
                    }
                }
            }
            let portals: Vec<u32> = (0..n as u32).map(|i| 100 + 7 * i).collect();
            let mut cell = HpaCell::empty([3, -2], 0);
            // Inside the cell's chunk column (x 48 .. 64, z -32 .. -16), heights far apart.
            let feet = |id: u32| {
                let id = id as i32;
                IVec3::new(48 + id % 16, -70 + 3 * id, -32 + id * 5 % 16)
            };
            cell.set_table(&portals, &table, feet);
            let place = |id: u32| cell.portals.iter().position(|&p| p == id).expect("kept");
            for i in 0..n {
                let from = place(portals[i]);
                assert_eq!(cell.feet(from), feet(portals[i]));
                let mut row = Vec::new();
                cell.for_each_in_row(from, |to, cost| row.push((cell.portals[to], cost)));
                row.sort_unstable();
                let mut expected = Vec::new();
                for j in 0..n {
                    let cost = table[i * n + j];
                    let read = cell.cost(from, place(portals[j]));
                    assert_eq!(read, (cost != UNREACHED).then_some(cost), "round {round}");
                    if cost != UNREACHED && j != i {
                        expected.push((portals[j], cost));
                    }
                }
                assert_eq!(row, expected, "round {round}: row {i}");
                let mut column = Vec::new();
                cell.for_each_in_column(from, |at, cost| column.push((cell.portals[at], cost)));
                column.sort_unstable();
                let expected: Vec<_> = (0..n)
                    .filter(|&j| table[j * n + i] != UNREACHED && j != i)
                    .map(|j| (portals[j], table[j * n + i]))
                    .collect();
                assert_eq!(column, expected, "round {round}: column {i}");
            }
            let narrow = table.iter().all(|&cost| cost == UNREACHED || cost < 65_535);
            // The full table without its diagonal.
            let full = n * (n - 1) * if narrow { 2 } else { 4 };
            assert!(cell.table.memory_bytes() <= full);
            split += usize::from(cell.table.memory_bytes() < full);
        }
        assert!(split > 20, "the blocks were smaller {split} times only");
    }
}
