// Client code for Scripts/typecheck-uikit.sh: a main-actor view controller whose UI closures call
// its own main-actor methods directly, with no `Task {}` and no `MainActor.assumeIsolated`: alert
// and action sheet buttons, whole-dialog handlers and lifecycle closures (they keep the isolation
// they are written in), main-actor key-value observing and a main-actor delayed block.
#if canImport(UIKit)
  import ClosureKit
  import ClosureKitUIKit
  import Foundation
  import UIKit

  final class Photo: NSObject {
    @objc dynamic var likes = 0
  }

  @MainActor
  final class PhotoViewController: UIViewController {
    let photo = Photo()
    let likesLabel = UILabel()
    let imageView = UIImageView(image: UIImage(systemName: "photo"))
    let deleteButton = UIButton(type: .system)
    let bag = SubscriptionBag()
    var isShowingDialog = false

    init() { super.init(nibName: nil, bundle: nil) }
    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
      super.viewDidLoad()
      navigationItem.rightBarButtonItem = UIBarButtonItem(barButtonSystemItem: .trash) { [weak self] _ in
        self?.confirmDelete()
      }
      deleteButton.actions(for: .touchUpInside).onMainActor.addHandler(owner: self) { screen, _ in
        screen.confirmDelete()
      }
      photo.observing(\.likes, options: [.initial, .new]).onMainActor.addHandler(owner: self) { screen, change in
        screen.showLikes(change.newValue ?? 0)
      }
      .store(in: bag)
    }

    func confirmDelete() {
      let alert = AlertDialog(title: "Delete the photo?")
      alert.addButton("Cancel", role: .cancel)
      alert.addButton("Delete", role: .destructive) { [weak self] _ in self?.deletePhoto() }
      alert.onWillPresent { [weak self] in self?.isShowingDialog = true }
      alert.onDidDismiss { [weak self] _ in self?.isShowingDialog = false }
      Task {
        try await alert.present(on: AlertControllerPresenter(presentingFrom: self))
      }
    }

    func choose() async throws {
      let sheet = ActionSheetDialog(
        title: "Photo",
        cancelButtonTitle: "Cancel",
        destructiveButtonTitle: "Delete",
        otherButtonTitles: "Share"
      ) { [weak self] index in
        if index == 0 { self?.deletePhoto() }
      }
      sheet.addButton("Hide") { _ in self.imageView.isHidden = true }
      sheet.setHandler { result in self.likesLabel.text = result.title }
      try await sheet.present(
        on: AlertControllerPresenter(presentingFrom: self, anchor: .view(deleteButton, rect: nil)))
    }

    func rename() async throws {
      let alert = AlertDialog(title: "Rename")
      let name = alert.addTextField(placeholder: "Name")
      alert.addButton("Cancel", role: .cancel)
      alert.addButton("Rename") { result in self.title = result.textFieldValues[name] }
      alert.addButton("Reset", role: .destructive) { _ in self.title = nil }
      alert.enableFirstOtherButton { values in !values[name].isEmpty }  // "Reset" stays enabled
      let result = try await alert.present(on: AlertControllerPresenter(presentingFrom: self))
      _ = result.isDismissed
    }

    func deletePhoto() {
      imageView.image = nil
      ClosureTimer.onMainActor.perform(after: .seconds(3)) { [weak self] in
        self?.hideDeleteButton()
      }
    }

    func hideDeleteButton() {
      deleteButton.isHidden = true
      _ = resignFirstResponder()
    }

    func showLikes(_ count: Int) {
      likesLabel.text = "\(count) likes"
    }
  }
#endif
