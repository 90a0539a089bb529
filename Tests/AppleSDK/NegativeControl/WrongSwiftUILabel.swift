// Negative control for Scripts/typecheck-apple-sdk.sh: a SwiftUI call with a label SwiftUI does not
// have. `onReceive(_:perform:)` written with `action:` must not compile against the SDK's SwiftUI
// (so the SwiftUI layer and its examples are really checked against SwiftUI's interface).
// expected-error: incorrect argument label in call (have '_:action:', expected '_:perform:')
#if canImport(SwiftUI)
  import Combine
  import SwiftUI

  struct WrongLabelScreen: View {
    let ticks = PassthroughSubject<Int, Never>()
    @State private var count = 0

    var body: some View {
      Text("\(count)").onReceive(ticks, action: { count = $0 })
    }
  }
#endif
