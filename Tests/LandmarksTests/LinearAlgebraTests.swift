import LinearAlgebra
import Testing

@Suite struct LinearAlgebraTests {
    @Test func ridgeWithTinyLambdaRecoversAnExactLinearMap() throws {
        // y = x·W with a bias column; 40 random samples, 5 features (+1), 3 outputs.
        var rng = UInt64(7)
        func next() -> Float { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Float(rng >> 40) / Float(1 << 24) - 0.5 }
        let trueW = Matrix(rows: 6, cols: 3, values: (0..<18).map { _ in next() * 4 })
        var x = Matrix(rows: 40, cols: 6)
        for r in 0..<40 { for c in 0..<5 { x[r, c] = next() }; x[r, 5] = 1 }
        let y = BLAS.multiply(x, trueW)
        var gram = Matrix(rows: 6, cols: 6)
        BLAS.accumulateGram(&gram, x)
        var cross = Matrix(rows: 6, cols: 3)
        BLAS.accumulateCross(&cross, x, y)
        let w = try RidgeRegression.solve(gram: gram, cross: cross, lambda: 1e-6, unpenalized: [5])
        for i in 0..<18 { #expect(abs(w.values[i] - trueW.values[i]) < 1e-3) }
    }

    @Test func ridgeShrinksPenalisedWeightsButNotTheBias() throws {
        let x = Matrix(rows: 4, cols: 2, values: [1, 1, -1, 1, 1, 1, -1, 1])
        let y = Matrix(rows: 4, cols: 1, values: [3, -1, 3, -1])   // y = 2·x0 + 1
        var gram = Matrix(rows: 2, cols: 2); BLAS.accumulateGram(&gram, x)
        var cross = Matrix(rows: 2, cols: 1); BLAS.accumulateCross(&cross, x, y)
        let w = try RidgeRegression.solve(gram: gram, cross: cross, lambda: 4, unpenalized: [1])
        #expect(abs(w.values[0] - 1) < 1e-4)   // 2 · 4 / (4 + 4)
        #expect(abs(w.values[1] - 1) < 1e-4)
    }

    @Test func gramOverARowRangeMatchesTheProductOfThoseRows() {
        let a = Matrix(rows: 3, cols: 2, values: [1, 2, 3, 4, 5, 6])
        var g = Matrix(rows: 2, cols: 2)
        BLAS.accumulateGram(&g, a, rows: 1..<3)
        BLAS.symmetrizeUpper(&g)
        #expect(g.values == [34, 42, 42, 52])
        #expect(BLAS.multiply(a, rows: 2..<3, Matrix(rows: 2, cols: 1, values: [1, 1])).values == [11])
    }

    @Test func eigenvectorsComeLargestFirst() throws {
        let m = Matrix(rows: 2, cols: 2, values: [2, 1, 1, 2])
        let (values, vectors) = try SymmetricEigen.decompose(m)
        #expect(abs(values[0] - 3) < 1e-5 && abs(values[1] - 1) < 1e-5)
        #expect(abs(abs(vectors[0, 0]) - 0.70710677) < 1e-5 && abs(vectors[0, 0] - vectors[1, 0]) < 1e-5)
    }

    @Test func singularSystemsAreReportedNotCrashed() {
        let gram = Matrix(rows: 2, cols: 2, values: [1, 1, 1, 1])
        let cross = Matrix(rows: 2, cols: 1, values: [1, 1])
        #expect(throws: RidgeRegression.SolveError.self) {
            _ = try RidgeRegression.solve(gram: gram, cross: cross, lambda: 0)
        }
    }
}
