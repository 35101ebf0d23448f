/// The requests of a run not submitted yet, in submission order: every spec of every list, round
/// after round. The plan is walked with a cursor, not held (100,000 planned items were 2.4 MB);
/// only the requests passed over while they wait for another request's response are kept.
struct RunQueue: Sequence {
    /// How many specs each list has.
    private let specCounts: [Int]
    private let rounds: Int
    /// Passed over (waiting for a dependency), in plan order; all before `cursor`.
    private var waiting: [RunItem] = []
    /// The next item of the plan not yet looked at, or nil when the plan is exhausted.
    private var cursor: RunItem?
    /// Items of the plan at or after `cursor`.
    private var remaining: Int

    init(specCounts: [Int], rounds: Int) {
        self.specCounts = specCounts
        self.rounds = rounds
        remaining = specCounts.reduce(0, +) * rounds
        cursor = nil
        cursor = remaining > 0 ? normalized(RunItem(list: 0, iteration: 0, spec: 0)) : nil
    }

    var count: Int { waiting.count + remaining }
    var isEmpty: Bool { count == 0 }

    /// Removes and returns the first item, in plan order, that `isReady`.
    mutating func takeFirst(where isReady: (RunItem) -> Bool) -> RunItem? {
        if let index = waiting.firstIndex(where: isReady) { return waiting.remove(at: index) }
        while let item = cursor {
            advance()
            if isReady(item) { return item }
            waiting.append(item)
        }
        return nil
    }

    /// Removes and returns the first item in plan order when it `isReady`; nil otherwise (nothing is passed over).
    mutating func takeFirstIfReady(_ isReady: (RunItem) -> Bool) -> RunItem? {
        if let first = waiting.first { return isReady(first) ? waiting.removeFirst() : nil }
        guard let item = cursor, isReady(item) else { return nil }
        advance()
        return item
    }

    mutating func removeAll() {
        waiting.removeAll()
        cursor = nil
        remaining = 0
    }

    func makeIterator() -> AnyIterator<RunItem> {
        var waitingItems = waiting.makeIterator()
        var copy = self
        return AnyIterator {
            if let item = waitingItems.next() { return item }
            guard let item = copy.cursor else { return nil }
            copy.advance()
            return item
        }
    }

    private mutating func advance() {
        remaining -= 1
        guard let item = cursor, remaining > 0 else {
            cursor = nil
            return
        }
        cursor = normalized(RunItem(list: item.list, iteration: item.iteration, spec: item.spec + 1))
    }

    /// The first plan item at or after `item` (skipping past the end of a list, and lists without specs).
    private func normalized(_ item: RunItem) -> RunItem? {
        var item = item
        while item.iteration < rounds {
            if item.list < specCounts.count, item.spec < specCounts[item.list] { return item }
            if item.list < specCounts.count {
                item = RunItem(list: item.list + 1, iteration: item.iteration, spec: 0)
            } else {
                item = RunItem(list: 0, iteration: item.iteration + 1, spec: 0)
            }
        }
        return nil
    }
}
