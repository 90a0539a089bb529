import ClosureKit
import ClosureKitFoundation
import ClosureKitTestSupport
import ClosureKitTesting
import Foundation
import Testing

@Suite struct OperationQueueDeliveryTests {
  @Test func operationQueueDeliveryRunsHandlersInSendOrderOnASerialQueue() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let event = Event<Int>()
    let done = Expectation(count: 3)
    let received = Locked<[Int]>([])
    event.addHandler(on: .operationQueue(queue)) { value in
      received.withLock { $0.append(value) }
      done.fulfill()
    }
    event.send(1)
    event.send(2)
    event.send(3)
    #expect(await done.wait(timeout: crossThreadDeadline))
    #expect(received.withLock { $0 } == [1, 2, 3])
  }
}
