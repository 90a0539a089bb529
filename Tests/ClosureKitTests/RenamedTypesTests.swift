import ClosureKit
import ClosureKitTesting
import Testing

/// The names of 0.1.0's renames still compile where Combine and SwiftUI cannot be imported.
@Suite struct RenamedTypesTests {
  #if !canImport(Combine) && !canImport(SwiftUI)
    @available(*, deprecated, message: "tests the deprecated spellings")
    @Test func theOldTypeNamesStillCompileAndAreTheNewTypes() async throws {
      let event = Event<Int>()
      let token: Subscription = event.addHandler { _ in }
      let renamed: HandlerSubscription = token  // the same type: no conversion
      #expect(renamed === token)
      token.cancel()
      #expect(event.handlerCount == 0)

      let alert = Alert(title: "Old name", cancelButtonTitle: "OK") { _ in }
      #expect(type(of: alert) == AlertDialog.self)
      let sheet = ActionSheet(title: "Old name")
      #expect(type(of: sheet) == ActionSheetDialog.self)
      let result = try await alert.present(on: ScriptedPresenter([.choose(0)]))
      #expect(result.index == 0)
    }
  #endif

  @Test func theNewNamesAreTheTypesRegistrationsReturn() {
    let event = Event<Int>()
    let token: HandlerSubscription = event.addHandler { _ in }
    #expect(!token.isCancelled)
  }
}
