//! A hint to the processor that an item is about to be read: one of the crate's two `unsafe`
//! blocks (the other asks for huge pages, `search/pages.rs`).
//!
//! A jump search with tables reads, at every expansion, the table cell of the position it
//! expands, somewhere in 200 MB on a large world, and it learns which cell that will be when
//! a jump lands there, often long before. Asking for the cell's lines then lets the memory
//! answer while the search works on: on the large pillars set of `benches/jps3d.rs` (a quiet
//! machine, interleaved runs, five passes each) 1.2x to 1.5x less time per query for 1.3% more
//! instructions; see the notes of `jps3d/dense.rs`. Stable Rust has no safe prefetch
//! (`core::intrinsics::prefetch_read_data` is unstable, and a plain load kept by
//! `std::hint::black_box` waits for the memory it reads: it was slower), so STYLE.md's rule
//! 10 applies: `unsafe` with the benchmark that proves it pays, here, in one function.

/// Asks the processor to start loading the cache lines of `slice[index]` (its first and last
/// byte) into its nearest cache. It changes nothing: an index out of range, and targets other
/// than `x86_64`, do nothing.
#[inline]
#[allow(
    unsafe_code,
    reason = "the prefetch intrinsic is an `unsafe fn`; measured in the module notes"
)]
pub(crate) fn prefetch<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(index) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let first = std::ptr::from_ref(item).cast::<i8>();
        let last = first.wrapping_add(size_of::<T>().saturating_sub(1));
        // SAFETY: `_mm_prefetch` is a hint: it reads nothing the program can see, writes
        // nothing and never faults, whatever the address. Its one requirement is the `sse`
        // target feature, which every `x86_64` target has. Both pointers lie inside `item`.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            _mm_prefetch::<_MM_HINT_T0>(last);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn prefetch_takes_any_index_and_any_item_size() {
        let cells = vec![[7u8; 24]; 100];
        for index in [0, 1, 50, 99, 100, usize::MAX] {
            prefetch(&cells, index);
        }
        prefetch(&[(); 3], 1);
        prefetch::<u64>(&[], 0);
        assert_eq!(cells[99], [7u8; 24], "a prefetch changes nothing");
    }
}
