//! Large tables in huge pages: a hint to the kernel, the crate's second `unsafe` block.
//!
//! A jump search with tables ([`JumpTables`](crate::search::jps3d::JumpTables)) reads, at
//! every expansion, a 24-byte cell somewhere in 200 MB on a large world. In pages of 4 kB
//! that is 50 000 pages, far more than the processor's address caches (TLBs) hold, so nearly
//! every such read also walks the page tables. In pages of 2 MB, 100 pages cover them all.
//! Linux backs memory with huge pages when asked (`madvise(MADV_HUGEPAGE)`), which is what its
//! default `transparent_hugepage=madvise` setting waits for; with `always` it does so anyway,
//! with `never` not at all, and other systems are not asked.
//!
//! Measured in session 29 on `benches/jps3d.rs` (`JPS3D_SET=... JPS3D_ENGINE=tables
//! JPS3D_PASSES=5` on the bench binary without and with the advice, interleaved, a quiet
//! machine; first with every large allocation of the process advised by glibc,
//! `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, then with this function), per query:
//!
//! | set | small pages | huge pages |
//! |---|---|---|
//! | large pillars, the bench's 40 pairs (this function, three runs each) | 751-759 us | 705-713 us |
//! | the same, glibc's advice | 729-766 us | 688-697 us |
//! | large, 40 pairs from seed 14 (`JPS3D_SEED=14`), glibc's advice | 1 583-1 719 us | 1 495-1 501 us |
//! | large, seed 17, glibc's advice | 1 113-1 135 us | 1 077-1 104 us |
//! | large, 200 pairs (`JPS3D_PAIRS=200`), glibc's advice | 858-906 us | 846-867 us |
//! | tiled (`fly-large-tiled`, 319 MB of tables) | 23.4-24.6 us | 21.7-22.9 us |
//! | small pillars, `Simple` (11 and 36 MB) | 39.5-39.9, 5.0-5.2 us | 37.8-39.3, 5.2 us |
//!
//! The instructions do not change: 382 998 056 before and after for the large set's priming
//! and timed passes (`valgrind --tool=callgrind --toggle-collect='*run_jump_tables*'`). What
//! the huge pages spare is the page walks, which callgrind does not model. The flier
//! A* (3 489-3 529 against 3 494-3 588 us per query on the large set) and the graph A* of the
//! hierarchy's `long` example (34.13-34.36 against 34.20-34.27 ms) did not change with glibc's
//! advice, and the hierarchy's abstract search gained 1% to 4% (1.730-1.740 against
//! 1.672-1.713 ms): their working sets are a few megabytes, or reused from query to query. So
//! only the jump tables ask.
//!
//! The cost is at the build. On this virtual machine the kernel took longer to hand out fresh
//! 2 MB pages than small ones: building the large set's tables took 717 to 1 336 ms (mostly
//! about 1 080, of it up to 0.5 s of system time) against 743 to 777 ms (0.1 s), the tiled
//! set's 1 538 to 1 928 ms against 1 237 to 1 239. Updates in place did not change (790-828
//! against 788-824 us for the bench's one block). Whole processes, five interleaved pairs of
//! runs of the bench (the large set, `JPS3D_PASSES=50`: the world, the tables and 2 000
//! queries each): wall time with the advice 1.084x that without (medians; user time 0.954x,
//! system time 0.416 s against 0.112 s), the queries 701-748 against 758-817 us. So the advice
//! pays back its build after some 7 000 queries on this machine: a build is paid once per
//! prepared world, a query every time.
//!
//! Safe Rust cannot give the advice (it is a system call), so STYLE.md's rule 10 applies:
//! `unsafe` with the benchmark that proves it pays, here, in one function.

/// The size of a huge page on the systems that are asked: 2 MB.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `len` copies of `value`, in memory that the kernel is asked to back with huge pages before
/// it is first written (Linux only; elsewhere, and when the kernel declines, an ordinary
/// vector). Worth it only for large tables read at random, in the sizes of many huge pages.
pub(crate) fn huge_vec<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut items = Vec::with_capacity(len);
    advise_huge(&items);
    items.resize(len, value);
    items
}

/// Asks for huge pages over the whole huge pages that `items`' capacity spans, when it spans
/// at least one (the advice works on whole pages; the rest keeps small ones).
#[allow(
    unsafe_code,
    reason = "`madvise` is a system call, an `unsafe fn`; measured in the module notes"
)]
fn advise_huge<T>(items: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = items.capacity().saturating_mul(size_of::<T>());
        let start = items.as_ptr().addr();
        let Some(end) = start.checked_add(bytes) else {
            return;
        };
        let Some(first) = start.checked_next_multiple_of(HUGE_PAGE) else {
            return;
        };
        let last = end & !(HUGE_PAGE - 1);
        if last <= first {
            return;
        }
        let page = items
            .as_ptr()
            .cast::<u8>()
            .wrapping_add(first - start)
            .cast_mut()
            .cast::<libc::c_void>();
        // SAFETY: the range from `page` for `last - first` bytes lies inside the vector's
        // allocation (its capacity), which this process owns and which stays mapped for the
        // call; `page` is aligned to a huge page, so to a page, as `madvise` requires.
        // `MADV_HUGEPAGE` changes only how the kernel backs those pages, never their contents
        // or who may use them. A kernel that declines (huge pages off or unsupported) returns
        // an error, and the vector works as before: the error is not an error of the caller's.
        let _ = unsafe { libc::madvise(page, last - first, libc::MADV_HUGEPAGE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = items;
}

#[cfg(test)]
mod tests {
    use super::huge_vec;

    #[test]
    fn huge_vectors_hold_what_ordinary_ones_hold_at_any_size() {
        for len in [0, 1, 1000, (4 << 20) / 24 + 7, (9 << 20) / 24] {
            let items = huge_vec(len, [3u8; 24]);
            assert_eq!(items.len(), len);
            assert!(items.iter().all(|item| *item == [3u8; 24]));
        }
        assert!(huge_vec(5, ()).len() == 5);
        let strings = huge_vec(3, String::from("cell"));
        assert_eq!(strings, ["cell", "cell", "cell"]);
    }
}
