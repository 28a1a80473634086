import Foundation

/// One peer system timed on the bench's frames.
struct BenchPeer: Codable {
    var name: String
    var landmarks: Int
    var versions: String
    /// Per frame, JPEG bytes to landmarks: wall time, and the peer process's CPU time (all its threads).
    var milliseconds: LatencySummary
    var cpuMilliseconds: LatencySummary
    var facesFoundPercent: Double
    /// Peer p50 over our tracking path's p50 on the same frames (> 1: we are faster), wall and CPU.
    var ratioToOurs: Double
    var ratioToOursCPU: Double
}

/// Peers (MediaPipe face mesh, dlib) timed by `Bench/Peers/peer_timing.py` on the frames of one run.
struct BenchPeerReport: Codable {
    /// Which run's frames the peers saw.
    var workload: String
    /// Our tracking path's p50 (JPEG decode gray, detection/landmarks, pose, smoothing), wall and thread CPU:
    /// the peers' counterpart, from the same JPEG bytes to landmarks.
    var ourTrackingP50: Double
    var ourTrackingCPUP50: Double
    var peers: [BenchPeer]
    var skipped: [String]

    func markdown() -> String {
        var s = "## Peers on the same frames (\(workload))\n\n"
        s += String(format: "From the same JPEG bytes to landmarks, like our tracking path (p50 %.2f ms thread CPU, %.2f ms wall). ",
                    ourTrackingCPUP50, ourTrackingP50)
        s += "Ratio = peer p50 / ours (> 1: we are faster); peer CPU is its whole process (MediaPipe uses worker threads).\n\n"
        if !peers.isEmpty {
            s += "| peer | landmarks | CPU p50 | wall p50 | wall p95 | wall p99 | faces found | ratio CPU | ratio wall |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
            for p in peers {
                s += String(format: "| %@ (%@) | %d | %.2f | %.2f | %.2f | %.2f | %.0f %% | %.2fx | %.2fx |\n", p.name, p.versions, p.landmarks,
                            p.cpuMilliseconds.p50, p.milliseconds.p50, p.milliseconds.p95, p.milliseconds.p99, p.facesFoundPercent,
                            p.ratioToOursCPU, p.ratioToOurs)
            }
        }
        for reason in skipped { s += "\nSkipped: \(reason)\n" }
        return s
    }
}

/// Runs the peer timing script when python3 is installed; every reason not to is a skip message.
enum BenchPeers {
    static func script() throws -> URL {
        try ModelsDirectory.locate().deletingLastPathComponent().appendingPathComponent("Bench/Peers/peer_timing.py")
    }

    static func python() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes the stream of `workload` (`count` frames) as JPEGs, times the peers on it and compares
    /// them with our tracking path on the same stream (`ours`).
    static func run(_ workload: BenchWorkload, count: Int, warmup: Int, ours: BenchPathResult) -> BenchPeerReport {
        var report = BenchPeerReport(workload: "\(workload.name) at \(workload.width)x\(workload.height), \(count) frames",
                                     ourTrackingP50: ours.endToEnd.p50, ourTrackingCPUP50: ours.cpu.p50, peers: [], skipped: [])
        guard let python = python() else {
            report.skipped.append("peers: python3 not found on PATH")
            return report
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lorgnette-bench-peers-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let script = try script()
            guard FileManager.default.fileExists(atPath: script.path) else {
                report.skipped.append("peers: \(script.path) not found")
                return report
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for i in 0..<count {
                try Data(workload.jpeg(i)).write(to: folder.appendingPathComponent(String(format: "frame_%06d.jpg", i)))
            }
            let output = folder.appendingPathComponent("peers.json")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script.path, "--frames", folder.path, "--warmup", String(warmup), "--json", output.path]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            // Drain stderr while waiting: MediaPipe logs enough to fill a pipe.
            let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let last = errorText.split(separator: "\n").last.map(String.init) ?? "exit status \(process.terminationStatus)"
                report.skipped.append("peers: peer_timing.py failed: \(last)")
                return report
            }
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any] ?? [:]
            for peer in object["peers"] as? [[String: Any]] ?? [] {
                let samples = (peer["samples_ms"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
                let cpuSamples = (peer["cpu_ms"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
                let wall = LatencySummary(samples), cpu = LatencySummary(cpuSamples)
                let frames = max(peer["frames"] as? Int ?? samples.count, 1)
                report.peers.append(BenchPeer(name: peer["name"] as? String ?? "?", landmarks: peer["landmarks"] as? Int ?? 0,
                                              versions: peer["versions"] as? String ?? "",
                                              milliseconds: wall, cpuMilliseconds: cpu,
                                              facesFoundPercent: 100 * Double(peer["faces_found"] as? Int ?? 0) / Double(frames),
                                              ratioToOurs: ours.endToEnd.p50 > 0 ? wall.p50 / ours.endToEnd.p50 : 0,
                                              ratioToOursCPU: ours.cpu.p50 > 0 ? cpu.p50 / ours.cpu.p50 : 0))
            }
            for skip in object["skipped"] as? [[String: Any]] ?? [] {
                report.skipped.append("\(skip["name"] as? String ?? "peer"): \(skip["reason"] as? String ?? "skipped")")
            }
        } catch {
            report.skipped.append("peers: \(error)")
        }
        return report
    }
}
