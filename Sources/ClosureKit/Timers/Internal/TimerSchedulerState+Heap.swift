/// The heap of ``TimerSchedulerState`` and its invariants.
extension TimerSchedulerState {
  /// Whether the entry at `lhs` fires before the one at `rhs`.
  private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
    heap.withUnsafeBufferPointer { entries in
      let leftDeadline = entries[lhs].deadline
      let rightDeadline = entries[rhs].deadline
      if leftDeadline != rightDeadline { return leftDeadline < rightDeadline }
      return entries[lhs].sequence < entries[rhs].sequence
    }
  }

  private mutating func swapAt(_ lhs: Int, _ rhs: Int) {
    heap.swapAt(lhs, rhs)
    records[heap[lhs].id]!.heapIndex = lhs
    records[heap[rhs].id]!.heapIndex = rhs
  }

  mutating func siftUp(_ start: Int) {
    var index = start
    while index > 0 {
      let parent = (index - 1) / 2
      guard precedes(index, parent) else { return }
      swapAt(index, parent)
      index = parent
    }
  }

  mutating func siftDown(_ start: Int) {
    var index = start
    while true {
      let left = 2 * index + 1
      guard left < heap.count else { return }
      var child = left
      if left + 1 < heap.count, precedes(left + 1, left) { child = left + 1 }
      guard precedes(child, index) else { return }
      swapAt(index, child)
      index = child
    }
  }

  /// Removes the entry at `index`, restores the heap order and returns the heap's reference to
  /// the timer (to be released after the lock).
  mutating func removeEntry(at index: Int) -> ClosureTimer {
    let id = heap[index].id
    let last = heap.count - 1
    if index != last {
      swapAt(index, last)
    }
    heap.removeLast()
    records[id]!.heapIndex = -1
    let timer = records[id]!.timer.take()!
    if index < heap.count {
      siftDown(index)
      siftUp(index)
    }
    return timer
  }

  /// Whether the state is consistent: the heap is ordered; every entry's record is live,
  /// scheduled, holds its timer, knows its `heapIndex` and has the entry's deadline; every live
  /// record outside the heap holds no timer and is not scheduled; an invalid one holds no handler;
  /// the free list names exactly the empty slots.
  ///
  /// O(n): the transitions assert it while the heap is small (at most
  /// ``verifiedHeapSize`` timers, so that debug builds stay usable with thousands); the model test
  /// (`TimerSchedulerModelTests`) calls it after every step at every size.
  func verifyInvariants(always: Bool = false) -> Bool {
    guard always || records.count <= Self.verifiedHeapSize else { return true }
    for index in heap.indices {
      if index > 0, precedes(index, (index - 1) / 2) { return false }
      guard let record = records[heap[index].id] else { return false }
      guard record.heapIndex == index, record.phase == .scheduled, record.timer != nil else { return false }
      guard record.deadline == heap[index].deadline else { return false }
    }
    var freeCount = 0
    for record in records {
      guard let record else {
        freeCount += 1
        continue
      }
      if record.heapIndex < 0, record.timer != nil || record.phase == .scheduled { return false }
      if record.phase == .invalid, record.handler != nil { return false }
      if record.unfinishedCalls < 0 { return false }
    }
    return freeCount == free.count && free.allSatisfy { records[$0] == nil }
  }

  /// The size up to which every transition checks ``verifyInvariants(always:)`` in debug builds.
  static let verifiedHeapSize = 64
}
