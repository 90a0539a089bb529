// The rows `Scripts/bench-guard.sh` checks: each printed as `guard <key> <value>`, a ratio against
// the baseline of its own table, or bytes per handler. The registration rows also print their time
// and the baseline's, `guard-ns <key> <ns>` and `guard-ns baseline <ns>`, so that the guard can set
// each row at its fastest against the baseline at its fastest over several processes.

/// The guard's keys of the registration table's rows.
let registrationGuardRows = [
  ("add-cancel", "Event.addHandler + cancel"),
  ("add-cancel-owner", "Event.addHandler(owner:) + cancel"),
  ("add-cancel-queue", "Event.addHandler(on: .queue) + cancel"),
  ("control-add-remove", "ControlActions.addAction + removeActions"),
  ("bag-of-10", "SubscriptionBag of 10 tokens, dropped (per token)"),
  ("observed-observe-cancel", "Observed.observe + cancel"),
]

let guardSuite = Suite(name: "guard") {
  printSendGuardRows()
  printRegistrationGuardRows(registrationTable())
  let observed = observedWriteTable(rounds: 61, iterations: 25_000)
  observed.print()
  print("guard observed-write \(observed.ratio(of: "Observed, 1 observer [.new]"))")
  print("guard memory-dropped \(measureInChildProcess("event-tokens-dropped"))")
  print("guard memory-kept \(measureInChildProcess("event-tokens-kept"))")
}

/// Only the registration rows of ``guardSuite``, printed the same way: the quick loop while working
/// on the add and remove paths (`closurekit-bench guard-registration`).
let guardRegistrationSuite = Suite(name: "guard-registration") {
  printRegistrationGuardRows(registrationTable())
}

/// The send rows alone, in a process of their own (`closurekit-bench guard-send`): the guard
/// counts each send row at its best over the processes that print it (`guard-best` lines).
let guardSendSuite = Suite(name: "guard-send") {
  printSendGuardRows()
}

/// Prints the send tables and their guard lines, `guard-best <key> <ratio>`: one process in two
/// or three measured `send-10` 10 % above the others on the idle 2-core machine (1.19, 1.26, 1.31
/// in runs of one binary), so the guard takes the row at its best over its processes, as it takes
/// the registration rows.
func printSendGuardRows() {
  for handlers in [1, 10, 100] {
    let table = sendTable(handlers: handlers, withNotificationCenter: false)
    table.print()
    print("guard-best send-\(handlers) \(table.ratio(of: "Event.send"))")
    print("guard-best send-\(handlers)-mutex \(table.value(of: "Event.send") / table.value(of: mutexMulticastRow))")
  }
  let withWork = sendWithWorkTable()
  withWork.print()
  print("guard-best send-10-work \(withWork.ratio(of: "Event.send"))")
}

/// Prints the registration table and its guard lines (see the top of this file).
func printRegistrationGuardRows(_ registration: Table) {
  registration.print()
  print("guard-ns baseline \(registration.value(of: "NotificationCenter add + remove observer"))")
  for (key, row) in registrationGuardRows {
    print("guard \(key) \(registration.ratio(of: row))")
    print("guard-ns \(key) \(registration.value(of: row))")
  }
}
