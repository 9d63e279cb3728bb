//! A cell's table of in-cell costs in a byte per entry, exact: each entry keeps what the route
//! costs above a floor computed from its two portals' feet ([`floor`]), and the few entries
//! whose excess does not fit a byte are kept aside, whole.
//!
//! The floor is the default costs' octile estimate between the two feet positions: 10 per
//! straight block and 4 more per diagonal one, 10 per block climbed and 2 per block dropped.
//! At the default [`MoveCosts`](crate::moves::agent::MoveCosts) no in-cell route costs less
//! (every step pays its horizontal part, every block climbed its climb), and routes inside
//! one chunk column rarely wander far above it: at 1024 x 128 x 1024 (`long --size 1024`),
//! 99.45% of the 1.52 M reachable entries were within 253 of their floor, none below it.
//! Other costs keep every answer exact too (an entry below its floor, or too far above it, is
//! kept aside); only the bytes saved shrink, and a cell with more entries aside than the
//! bytes pay for keeps its 16- or 32-bit table instead.
//!
//! The floor is a load from a 64 kB table of horizontal distances and a few integer
//! operations on the packed feet the cell keeps anyway, so rows and columns cost a little
//! more to read, for half the bytes of the tables, the abstraction's second largest part.
//! Measured at 2048 (`HIER_ENGINE=hpa target/release/examples/long`): the abstraction
//! 52.3 MB to 45.6 MB (67% to 58% on top of the graph; tables 14.2 MB to 7.5 MB), the same
//! routes and expansions. At 1024, callgrind (commands in the module docs of `crate::hier`):
//! query instructions 108.6 M to 113.9 M for 20 queries (+4.9%; computing the floor in 64-bit
//! arithmetic from the feet instead of the table's load: +9.6%), build 8.79 G to 9.25 G
//! (+5.2%, most of it the landmark searches' columns), 200 block edits 372.6 M to 383.5 M.

use crate::hier::Table;
use crate::hier::cell::UNREACHED;

/// The byte of a pair with no route inside the cell.
const NO_ROUTE: u8 = u8::MAX;

/// The byte of an entry kept aside.
const ASIDE: u8 = u8::MAX - 1;

/// The horizontal part of [`floor`] between every two local columns (`x << 4 | z`), read
/// by the rows in one load: 64 kB, computed at compile time.
static FLAT: [[u8; 256]; 256] = {
    let mut table = [[0u8; 256]; 256];
    let mut from: usize = 0;
    while from < 256 {
        let mut to: usize = 0;
        while to < 256 {
            let dx = (from >> 4).abs_diff(to >> 4);
            let dz = (from & 15).abs_diff(to & 15);
            let (high, low) = if dx > dz { (dx, dz) } else { (dz, dx) };
            // At most 10 * 15 + 4 * 15 = 210.
            table[from][to] = (10 * high + 4 * low) as u8;
            to += 1;
        }
        from += 1;
    }
    table
};

/// The floor of the route cost from a portal whose packed feet (height above the cell's
/// lowest portal above bit 8, local x and z in 4 bits each) are `from` to one whose are
/// `to`. Heights of one cell's portals differ by less than `2^24` (the packed feet's bits),
/// so the floor stays below `2^32`.
#[inline]
pub(super) fn floor(from: u32, to: u32) -> u32 {
    // Both heights are below 2^24: the rise and ten times it fit an i32.
    let rise = (to >> 8) as i32 - (from >> 8) as i32;
    let climb = (10 * rise).max(-2 * rise) as u32;
    u32::from(FLAT[(from & 0xff) as usize][(to & 0xff) as usize]) + climb
}

/// One cell's table: bytes above the floor, or the plain table where those do not pay.
#[derive(Debug, Clone)]
pub(super) enum CellTable {
    /// Entry `k` costs `floor + bytes[k]`; [`ASIDE`]: its cost is in `aside`, by entry;
    /// [`NO_ROUTE`]: no route.
    Bytes {
        bytes: Box<[u8]>,
        aside: Box<[(u32, u32)]>,
    },
    /// The 16- or 32-bit costs.
    Plain(Table),
}

impl Default for CellTable {
    fn default() -> Self {
        Self::Plain(Table::Narrow(Vec::new()))
    }
}

impl CellTable {
    /// The table of `costs` ([`UNREACHED`] for no route), entry `k` being the route from the
    /// portal whose packed feet are `ends(k).0` to the one whose are `ends(k).1`.
    pub(super) fn new(mut costs: Vec<u32>, ends: impl Fn(usize) -> (u32, u32)) -> Self {
        let mut bytes = Vec::with_capacity(costs.len());
        let mut aside = Vec::new();
        for (k, &cost) in costs.iter().enumerate() {
            if cost == UNREACHED {
                bytes.push(NO_ROUTE);
                continue;
            }
            let (from, to) = ends(k);
            match u8::try_from(i64::from(cost) - i64::from(floor(from, to))) {
                Ok(excess) if excess < ASIDE => bytes.push(excess),
                _ => {
                    bytes.push(ASIDE);
                    // Entries and costs of one cell fit 32 bits (the caller's table is of u32).
                    aside.push((k as u32, cost));
                }
            }
        }
        let narrow = costs
            .iter()
            .all(|&cost| cost == UNREACHED || cost < u32::from(u16::MAX));
        if bytes.len() + 8 * aside.len() >= costs.len() * if narrow { 2 } else { 4 } {
            // Kept for as long as the cell: no room left over from growing.
            costs.shrink_to_fit();
            return Self::Plain(Table::new(costs));
        }
        Self::Bytes {
            bytes: bytes.into_boxed_slice(),
            aside: aside.into_boxed_slice(),
        }
    }

    /// The cost kept aside for entry `k`.
    #[cold]
    fn aside(aside: &[(u32, u32)], k: usize) -> u32 {
        aside
            .binary_search_by_key(&k, |&(entry, _)| entry as usize)
            .map_or(UNREACHED, |at| aside[at].1)
    }

    /// Entry `k`, the route from feet `from` to feet `to` (packed); `None` for no route.
    #[inline]
    pub(super) fn get(&self, k: usize, from: u32, to: u32) -> Option<u32> {
        match self {
            Self::Bytes { bytes, aside } => match bytes[k] {
                NO_ROUTE => None,
                ASIDE => Some(Self::aside(aside, k)),
                // The cost it was made from.
                excess => Some(floor(from, to) + u32::from(excess)),
            },
            Self::Plain(table) => table.get(k),
        }
    }

    /// Visits the reachable entries from `first` on, one per target in `targets` (packed
    /// feet), all from the feet `from`: `(place among targets, cost)`.
    #[inline]
    pub(super) fn for_each_in(
        &self,
        first: usize,
        from: u32,
        targets: &[u32],
        mut visit: impl FnMut(usize, u32),
    ) {
        match self {
            Self::Bytes { bytes, aside } => {
                let row = &bytes[first..first + targets.len()];
                for (column, (&excess, &to)) in row.iter().zip(targets).enumerate() {
                    match excess {
                        NO_ROUTE => {}
                        ASIDE => visit(column, Self::aside(aside, first + column)),
                        excess => visit(column, floor(from, to) + u32::from(excess)),
                    }
                }
            }
            Self::Plain(table) => table.for_each_in(first..first + targets.len(), visit),
        }
    }

    /// Visits the reachable entries into portal `column` of a block from entry `offset` on
    /// (rows without their own entry, see `blocks.rs`), whose portals' packed feet are
    /// `feet`: `(row, cost)`.
    #[inline]
    pub(super) fn for_each_in_column(
        &self,
        offset: usize,
        column: usize,
        feet: &[u32],
        mut visit: impl FnMut(usize, u32),
    ) {
        let size = feet.len();
        let to = feet[column];
        // Row `row` leaves out its own entry: the columns after it one place earlier.
        let entry = |row: usize| offset + row * (size - 1) + column - usize::from(column > row);
        match self {
            Self::Bytes { bytes, aside } => {
                for (row, &from) in feet.iter().enumerate() {
                    if row == column {
                        continue;
                    }
                    match bytes[entry(row)] {
                        NO_ROUTE => {}
                        ASIDE => visit(row, Self::aside(aside, entry(row))),
                        excess => visit(row, floor(from, to) + u32::from(excess)),
                    }
                }
            }
            Self::Plain(table) => {
                for row in (0..size).filter(|&row| row != column) {
                    if let Some(cost) = table.get(entry(row)) {
                        visit(row, cost);
                    }
                }
            }
        }
    }

    /// The bytes the table holds.
    pub(super) fn memory_bytes(&self) -> usize {
        match self {
            Self::Bytes { bytes, aside } => bytes.len() + aside.len() * 8,
            Self::Plain(table) => table.memory_bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CellTable, floor};
    use crate::hier::cell::UNREACHED;

    /// Random cells' costs, most a little above their floor, some below it, some far above,
    /// some too wide for 16 bits, some unreachable: every entry reads back exactly, by entry
    /// and by runs, and the bytes are chosen only where they take less room.
    #[test]
    fn every_cost_reads_back_exactly() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut bytes, mut plain) = (0, 0);
        for round in 0..200 {
            let n = 2 + (next() % 30) as usize;
            // Packed feet: height above the lowest portal above bit 8, local x and z below.
            let feet: Vec<u32> = (0..n)
                .map(|_| ((next() % 300) as u32) << 8 | (next() % 256) as u32)
                .collect();
            let ends: Vec<(u32, u32)> = (0..n)
                .flat_map(|i| {
                    (0..n)
                        .filter(move |&j| j != i)
                        .map(move |j| (i as u32, j as u32))
                })
                .collect();
            // Every fourth round a cell whose costs mostly miss the byte.
            let wild = round % 4 == 0;
            let costs: Vec<u32> = ends
                .iter()
                .map(|&(i, j)| {
                    let base = i64::from(floor(feet[i as usize], feet[j as usize]));
                    let roll = next() % 100;
                    let cost = match roll {
                        0..=4 => return UNREACHED,
                        5..=6 => base - 1 - (next() % 5) as i64,
                        7..=8 => base + 253 + (next() % 40) as i64,
                        9 => 70_000 + (next() % 1_000_000) as i64,
                        _ if wild => base + 300 + (next() % 500) as i64,
                        _ => base + (next() % 254) as i64,
                    };
                    cost.max(0) as u32
                })
                .collect();
            let table = CellTable::new(costs.clone(), |k| {
                let (i, j) = ends[k];
                (feet[i as usize], feet[j as usize])
            });
            match table {
                CellTable::Bytes { .. } => bytes += 1,
                CellTable::Plain(_) => plain += 1,
            }
            let reads = |k: usize| {
                let (i, j) = ends[k];
                table.get(k, feet[i as usize], feet[j as usize])
            };
            for (k, &cost) in costs.iter().enumerate() {
                assert_eq!(
                    reads(k),
                    (cost != UNREACHED).then_some(cost),
                    "round {round}"
                );
            }
            // Each portal's row, as the blocks read it.
            for i in 0..n {
                let first = i * (n - 1);
                let targets: Vec<u32> = (0..n).filter(|&j| j != i).map(|j| feet[j]).collect();
                let mut seen = Vec::new();
                table.for_each_in(first, feet[i], &targets, |column, cost| {
                    seen.push((first + column, cost));
                });
                let expected: Vec<(usize, u32)> = (first..first + n - 1)
                    .filter(|&k| costs[k] != UNREACHED)
                    .map(|k| (k, costs[k]))
                    .collect();
                assert_eq!(seen, expected, "round {round}: row {i}");
            }
            let wide = costs
                .iter()
                .any(|&cost| cost != UNREACHED && cost >= 65_535);
            let plain_bytes = costs.len() * if wide { 4 } else { 2 };
            assert!(table.memory_bytes() <= plain_bytes, "round {round}");
            if matches!(table, CellTable::Bytes { .. }) {
                assert!(table.memory_bytes() < plain_bytes, "round {round}");
            }
        }
        assert!(
            bytes > 100 && plain > 20,
            "{bytes} cells in bytes, {plain} plain"
        );
    }
}
