//! The record table of fliers' and swimmers' searches: a [`CellTable`] as the search loop sees
//! it.

use glam::IVec3;

use super::cells::{ARRIVAL_MASK, CLOSED, CellTable, Record};
use super::core::{Offer, RecordTable};
use crate::world::Bounds;

/// The most nodes one flier's or swimmer's search may create, as many as a walker's.
const MAX_CELL_NODES: u64 = super::nodes::MAX_NODES as u64;

/// A [`CellTable`] as the search loop sees it during one search: a record's tag carries the
/// arrival code of the move that reached it (its parent is the cell that code points back
/// to), and the table counts the nodes made.
#[derive(Debug)]
pub(crate) struct CellRecords<'a, R> {
    pub(crate) cells: &'a mut CellTable<R>,
    /// [`CellTable::tag`]`(0)` of this search.
    open_tag: u32,
    /// Nodes made so far.
    made: u64,
}

impl<'a, R: Record> CellRecords<'a, R> {
    /// Starts a search from `start` in a world of `bounds`: the start's node, or `None` when
    /// `start` is outside the key range.
    pub(crate) fn start(
        cells: &'a mut CellTable<R>,
        bounds: Option<Bounds>,
        start: IVec3,
        no_arrival: u32,
    ) -> Option<(Self, u32)> {
        cells.start(bounds);
        let node = cells.node(start)?;
        *cells.cell(node) = R::new(0, cells.tag(no_arrival));
        let open_tag = cells.tag(0);
        Some((
            Self {
                cells,
                open_tag,
                made: 1,
            },
            node,
        ))
    }
}

impl<R: Record> RecordTable for CellRecords<'_, R> {
    type Record = R;
    /// A successor's cell.
    type At = u32;
    /// The arrival code of the move.
    type Via = u32;

    #[inline]
    fn open_record(&mut self, node: u32) -> Option<R> {
        let record = *self.cells.cell(node);
        (record.tag() & CLOSED == 0).then_some(record)
    }

    #[inline]
    fn g(record: R) -> u64 {
        record.g()
    }

    #[inline]
    fn close(&mut self, node: u32) {
        self.cells.cell(node).close();
    }

    #[inline]
    fn nearly_full(&self) -> bool {
        self.cells.nearly_full()
    }

    #[inline]
    fn offer(&mut self, to: u32, g: u64, _: u32, arrival: u32) -> Offer {
        let open_tag = self.open_tag;
        let record = self.cells.cell(to);
        if record.tag() & !(CLOSED | ARRIVAL_MASK) != open_tag {
            if self.made >= MAX_CELL_NODES {
                return Offer::Full;
            }
            self.made += 1;
        } else if g >= record.g() {
            return Offer::Kept;
        }
        // A new node, or a cheaper route to a known one (open again, with a new parent).
        if g > R::MAX_G {
            return Offer::Overflow;
        }
        *record = R::new(g, open_tag | arrival);
        Offer::Taken(to)
    }
}
