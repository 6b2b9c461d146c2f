#pragma once
// A table stored column by column from a C++ row type: each Column of its description is paired with a
// Field type saying how the row's value is bound to a statement and read back. The pairing is made once,
// in rowTable(col<Field>(...), ...), so a column's SQL and its C++ member cannot drift apart. Binding and
// reading are fold expressions over the Field types: inlined, no per-row dispatch (the bulk insert of an
// ingest binds tens of millions of values).
//
// A Field is a type with
//   static constexpr bool kValue;        // false for key columns the row does not hold (id, run_id)
//   static void bind(Sink&, int& param, const Row&, const Ctx&);   // binds ++param when kValue; Sink is a
//                                                                   // Statement or a RowBuffer
//                                                                   (store/RowBuffer.h)
//   static void read(const Statement&, int& column, Row&, Ctx&);        // reads column++ when kValue
//   static constexpr bool kStringId;     // a StringId (a `*_id` column)
//   static V value(const Row&);          // the C++ value (when kValue), for RowTable::visit
// and optionally
//   static std::string select(std::string_view column);   // the SELECT expression reading it
// A Ctx maps string ids: ctx.stringId(StringId) -> workspace string id (bind),
// ctx.localString(std::int64_t workspace id) -> StringId (read).
#include "core/StringTable.h"
#include "store/JsonText.h"
#include "store/Sqlite.h"
#include "store/TableSchema.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cnp::schema {

// The value of a StringIdField as RowTable::visit hands it out (an id into the row's StringTable).
struct StringRef {
    StringId id = 0;
};

template <class T> struct MemberOf;
template <class R, class M> struct MemberOf<M R::*> {
    using Row = R;
    using Type = M;
};

// A key column outside the row (the row id, the run id): not bound by bindRow, not read by readRow.
struct KeyField {
    static constexpr bool kValue = false, kStringId = false;
    template <class S, class R, class C> static void bind(S&, int&, const R&, const C&) {}
    template <class R, class C> static void read(const Statement&, int&, R&, C&) {}
};

// An integral or enum member, stored as INTEGER.
template <auto M> struct IntField {
    using Row = typename MemberOf<decltype(M)>::Row;
    using Type = typename MemberOf<decltype(M)>::Type;
    static constexpr bool kValue = true, kStringId = false;
    static Type value(const Row& r) { return r.*M; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        st.bind(++i, static_cast<std::int64_t>(r.*M));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        r.*M = static_cast<Type>(st.i64(c++));
    }
};

// Element K of an integral array member (grid[3]), stored as INTEGER.
template <auto M, std::size_t K> struct IntElementField {
    using Row = typename MemberOf<decltype(M)>::Row;
    using Type = std::remove_extent_t<typename MemberOf<decltype(M)>::Type>;
    static constexpr bool kValue = true, kStringId = false;
    static Type value(const Row& r) { return (r.*M)[K]; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        st.bind(++i, static_cast<std::int64_t>((r.*M)[K]));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        (r.*M)[K] = static_cast<Type>(st.i64(c++));
    }
};

template <auto M> struct RealField {
    using Row = typename MemberOf<decltype(M)>::Row;
    static constexpr bool kValue = true, kStringId = false;
    static double value(const Row& r) { return r.*M; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        st.bind(++i, static_cast<double>(r.*M));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        r.*M = st.f64(c++);
    }
};

// A StringId member, stored as the workspace's string id (`*_id` columns, table `strings`).
template <auto M> struct StringIdField {
    using Row = typename MemberOf<decltype(M)>::Row;
    static constexpr bool kValue = true, kStringId = true;
    static StringRef value(const Row& r) { return {r.*M}; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C& ctx) {
        st.bind(++i, ctx.stringId(r.*M));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C& ctx) {
        r.*M = ctx.localString(st.i64(c++));
    }
};

// A std::string member, stored as TEXT.
template <auto M> struct TextField {
    using Row = typename MemberOf<decltype(M)>::Row;
    static constexpr bool kValue = true, kStringId = false;
    static const std::string& value(const Row& r) { return r.*M; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        st.bind(++i, std::string_view(r.*M));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        r.*M = st.text(c++);
    }
};

// A std::vector<std::string> member, stored as a JSON array (TEXT; malformed text reads as empty).
template <auto M> struct JsonArrayField {
    using Row = typename MemberOf<decltype(M)>::Row;
    static constexpr bool kValue = true, kStringId = false;
    static const std::vector<std::string>& value(const Row& r) { return r.*M; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        st.bind(++i, jsonArrayText(r.*M));
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        r.*M = parseJsonArrayText(st.text(c++));
    }
};

// An optional integer member (std::optional<std::int64_t>), stored as INTEGER; nullopt is NULL.
template <auto M> struct OptionalIntField {
    using Row = typename MemberOf<decltype(M)>::Row;
    static constexpr bool kValue = true, kStringId = false;
    static const std::optional<std::int64_t>& value(const Row& r) { return r.*M; }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        if ((r.*M).has_value())
            st.bind(++i, *(r.*M));
        else
            st.bindNull(++i);
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        r.*M = st.isNull(c) ? std::nullopt : std::optional<std::int64_t>(st.i64(c));
        ++c;
    }
};

// A text member (std::string, or std::optional<std::string>) stored as the id of its value in table
// `strings` (a `*_id` column): bound through a RowBuffer's bindStringId (interned when the buffer is
// flushed), read through a subquery on `strings`. A missing string (or id 0) reads as "" or nullopt; a
// nullopt member is stored as id 0 ("none").
template <auto M> struct InternedTextField {
    using Row = typename MemberOf<decltype(M)>::Row;
    using Type = typename MemberOf<decltype(M)>::Type;
    static constexpr bool kValue = true, kStringId = false;
    static constexpr bool kOptional = std::is_same_v<Type, std::optional<std::string>>;
    static_assert(kOptional || std::is_same_v<Type, std::string>);
    static const Type& value(const Row& r) { return r.*M; }
    static std::string select(std::string_view column) {
        return "(SELECT value FROM strings WHERE id = " + std::string(column) + ")";
    }
    template <class S, class R, class C> static void bind(S& st, int& i, const R& r, const C&) {
        if constexpr (kOptional) {
            if (!(r.*M).has_value()) {
                st.bind(++i, std::int64_t{0});
                return;
            }
            st.bindStringId(++i, *(r.*M));
        } else {
            st.bindStringId(++i, r.*M);
        }
    }
    template <class R, class C> static void read(const Statement& st, int& c, R& r, C&) {
        if constexpr (kOptional)
            r.*M = st.isNull(c) ? std::nullopt : std::optional<std::string>(st.text(c));
        else
            r.*M = st.text(c);
        ++c;
    }
};

template <class F> struct TypedColumn { Column column; };
template <class F>
constexpr TypedColumn<F> col(std::string_view name, SqlType type, std::string_view constraint,
                             std::string_view unit = {}) {
    return {Column{name, type, constraint, unit}};
}

template <class Row, class... F> struct RowTable {
    std::string_view name;
    std::array<Column, sizeof...(F)> columns;
    std::string_view primaryKey;

    // Key columns (id, run_id) come first; the row's own values follow.
    static constexpr std::size_t kKeyColumns = (std::size_t{0} + ... + (F::kValue ? 0 : 1));
    static constexpr int kValueColumns = (0 + ... + (F::kValue ? 1 : 0));
    static constexpr bool kKeysFirst = [] {
        constexpr bool value[] = {F::kValue...};
        for (std::size_t i = 0; i < sizeof...(F); ++i)
            if (!value[i] && i >= kKeyColumns)
                return false;
        return true;
    }();
    static_assert(kKeysFirst, "key columns must precede the row's value columns");

    constexpr Table table() const { return {name, columns, primaryKey}; }
    // Binds the row's values to parameters base+1 .. base+kValueColumns, in column order. `st`: a
    // Statement or a RowBuffer.
    template <class S, class Ctx> static void bindRow(S& st, int base, const Row& row, const Ctx& ctx) {
        int i = base;
        (F::bind(st, i, row, ctx), ...);
    }
    // Reads the row's values from result columns first .. first+kValueColumns-1 (a SELECT of valueColumns()).
    template <class Ctx> static void readRow(const Statement& st, int first, Row& row, Ctx& ctx) {
        int c = first;
        (F::read(st, c, row, ctx), ...);
    }
    // fn(column, isStringId) for each value column, in table order.
    template <class Fn> void visitColumns(Fn&& fn) const {
        std::size_t k = 0;
        auto one = [&]<class G>() {
            if constexpr (G::kValue)
                fn(columns[k], G::kStringId);
            ++k;
        };
        (one.template operator()<F>(), ...);
    }
    // fn(column, value) for each value column of `row`, in table order (values as Field::value gives them).
    template <class Fn> void visit(const Row& row, Fn&& fn) const {
        std::size_t k = 0;
        auto one = [&]<class G>() {
            if constexpr (G::kValue)
                fn(columns[k], G::value(row));
            ++k;
        };
        (one.template operator()<F>(), ...);
    }
    // "c1, c2, ..." of the value columns (every column but the keys).
    std::string valueColumns() const { return columnList(table(), kKeyColumns); }
    // The SELECT list readRow reads: each value column as `prefix` + name, or its Field's select()
    // expression of that; "NULL" for a column `present(name)` denies (a column an older workspace lacks).
    template <class Present> std::string selectList(std::string_view prefix, Present&& present) const {
        std::string out;
        std::size_t k = 0;
        auto one = [&]<class G>() {
            if constexpr (G::kValue) {
                const Column& c = columns[k];
                std::string expr = std::string(prefix) + std::string(c.name);
                if constexpr (requires { G::select(std::string_view()); })
                    expr = G::select(expr);
                out += (out.empty() ? "" : ", ") + (present(c.name) ? expr : std::string("NULL"));
            }
            ++k;
        };
        (one.template operator()<F>(), ...);
        return out;
    }
    std::string selectList(std::string_view prefix = {}) const {
        return selectList(prefix, [](std::string_view) { return true; });
    }
    // Index of column `column` in the table (consteval: a misspelt name does not compile).
    consteval std::size_t indexOf(std::string_view column) const {
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (columns[i].name == column)
                return i;
        throw "no such column"; // not a constant expression: a compile error
    }
};

template <class Row, class... F>
constexpr RowTable<Row, F...> rowTable(std::string_view name, std::string_view primaryKey,
                                       TypedColumn<F>... c) {
    return {name, {c.column...}, primaryKey};
}

} // namespace cnp::schema
