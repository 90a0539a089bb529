import ClosureKit
import ClosureKitTestSupport
import ClosureKitTesting
import Testing

/// Random sequences of add / once / cancel / send checked against a small reference model.
@Suite struct EventModelTests {
  /// What the model knows of one registration.
  struct ModelHandler {
    let id: Int
    let isOnce: Bool
    var isLive = true
  }

  @Test(.heavy, arguments: 1...20)
  func randomOperationsMatchTheReferenceModel(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed))
    let event = Event<Int>()
    let calls = Recorder<Int>()
    var model: [ModelHandler] = []
    var tokens: [Int: HandlerSubscription] = [:]
    var nextID = 0
    for step in 0..<400 {
      switch generator.next() % 5 {
      case 0, 1:
        let id = nextID
        nextID += 1
        let isOnce = generator.next() % 3 == 0
        let token = isOnce ? event.once { _ in calls.append(id) } : event.addHandler { _ in calls.append(id) }
        tokens[id] = token
        model.append(ModelHandler(id: id, isOnce: isOnce))
      case 2:
        guard !model.isEmpty else { continue }
        let index = Int(generator.next() % UInt64(model.count))
        tokens[model[index].id]?.cancel()
        model[index].isLive = false
      default:
        let before = calls.values.count
        event.send(step)
        let delivered = Array(calls.values[before...])
        let expected = model.filter(\.isLive).map(\.id)
        #expect(delivered == expected, "seed \(seed) step \(step)")
        for index in model.indices where model[index].isOnce {
          model[index].isLive = false
        }
      }
      #expect(event.handlerCount == model.filter(\.isLive).count, "seed \(seed) step \(step)")
      for handler in model {
        #expect(tokens[handler.id]?.isCancelled == !handler.isLive, "seed \(seed) step \(step)")
      }
    }
  }
}
