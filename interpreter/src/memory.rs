//! Sizes in memory: what the allocator takes for a block, a string, a
//! vector and an ordered map, as the evaluation budget ([`crate::budget`])
//! counts them.

use std::mem::size_of;

/// The bytes the allocator takes for a block of `size` bytes (glibc's
/// malloc: a chunk of a multiple of 16 bytes, its 8-byte header included,
/// at least 32); nothing for an empty block, which takes no allocation.
pub const fn allocation(size: usize) -> u64 {
    if size == 0 {
        return 0;
    }
    let chunk = (size as u64 + 8 + 15) & !15;
    if chunk < 32 {
        32
    } else {
        chunk
    }
}

/// The memory of a string of `bytes` bytes.
pub const fn text_bytes(bytes: usize) -> u64 {
    allocation(bytes)
}

/// The memory of a vector with room for `capacity` items of type `T`.
pub const fn sequence_bytes<T>(capacity: usize) -> u64 {
    allocation(capacity.saturating_mul(size_of::<T>()))
}

/// The memory of the tree of an ordered map of `entries` names to items of
/// type `T` (a `BTreeMap<String, T>`), its names and items' own memory
/// apart. Each node holds up to 11 entries whatever it holds, so a
/// one-attribute object takes a whole node; a map built one entry at a
/// time has nodes about half full and a branch node for about five
/// leaves: one node for every five entries, and one more.
pub const fn tree_bytes<T>(entries: usize) -> u64 {
    if entries == 0 {
        return 0;
    }
    const CAPACITY: usize = 11;
    // A leaf: a pointer to its parent, two 16-bit indexes, the entries.
    let leaf = 16 + CAPACITY * (size_of::<String>() + size_of::<T>());
    (1 + entries as u64 / 5) * allocation(leaf)
}
