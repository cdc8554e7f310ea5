package memoryd

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	memorydv1 "github.com/memoryd/memoryd/clients/go/gen/memoryd/v1"
)

// Constructors of filter trees (memorydv1.Filter), for the filter field of
// ListMemories, SearchMemories, ForgetMemories:
//
//	where := memoryd.All(memoryd.Eq("metadata.lang", "en"), memoryd.Gte("create_time", since))
//	client.SearchMemories(ctx, &memorydv1.SearchMemoriesRequest{Query: q, Scope: scope, Filter: where})
//
// A field is "metadata.<key>" (nested keys joined by "."), "create_time" or
// "update_time"; timestamps compare with time.Time values only.

// Value is what a condition compares a field with.
type Value interface {
	string | bool | int | int64 | float64 | time.Time
}

// FilterValue returns the FilterValue of v.
func FilterValue[V Value](v V) *memorydv1.FilterValue {
	switch v := any(v).(type) {
	case string:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_StringValue{StringValue: v}}
	case bool:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_BoolValue{BoolValue: v}}
	case int:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_NumberValue{NumberValue: float64(v)}}
	case int64:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_NumberValue{NumberValue: float64(v)}}
	case float64:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_NumberValue{NumberValue: v}}
	case time.Time:
		return &memorydv1.FilterValue{Kind: &memorydv1.FilterValue_TimeValue{TimeValue: timestamppb.New(v)}}
	}
	panic("unreachable: Value has no other types")
}

// Condition returns a one-condition filter.
func Condition[V Value](field string, operator memorydv1.ComparisonOperator, values ...V) *memorydv1.Filter {
	operands := make([]*memorydv1.FilterValue, len(values))
	for i, v := range values {
		operands[i] = FilterValue(v)
	}
	return &memorydv1.Filter{Kind: &memorydv1.Filter_Condition{Condition: &memorydv1.Condition{
		Field: field, Operator: operator, Values: operands,
	}}}
}

// Eq matches when field equals value.
func Eq[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_EQ, value)
}

// Ne matches when field is missing or differs from value.
func Ne[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_NE, value)
}

// In matches when field equals one of values (all of one kind).
func In[V Value](field string, values ...V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_IN, values...)
}

// NotIn matches when field is missing or equals none of values.
func NotIn[V Value](field string, values ...V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_NOT_IN, values...)
}

// Gt matches when field is greater than value (a number or a time).
func Gt[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_GT, value)
}

// Gte matches when field is greater than or equal to value.
func Gte[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_GTE, value)
}

// Lt matches when field is less than value.
func Lt[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_LT, value)
}

// Lte matches when field is less than or equal to value.
func Lte[V Value](field string, value V) *memorydv1.Filter {
	return Condition(field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_LTE, value)
}

// Exists matches when field is present and not null.
func Exists(field string) *memorydv1.Filter {
	return Condition[string](field, memorydv1.ComparisonOperator_COMPARISON_OPERATOR_EXISTS)
}

// All matches when every filter matches.
func All(filters ...*memorydv1.Filter) *memorydv1.Filter {
	return &memorydv1.Filter{Kind: &memorydv1.Filter_All{All: &memorydv1.FilterList{Filters: filters}}}
}

// Any matches when at least one filter matches.
func Any(filters ...*memorydv1.Filter) *memorydv1.Filter {
	return &memorydv1.Filter{Kind: &memorydv1.Filter_Any{Any: &memorydv1.FilterList{Filters: filters}}}
}

// Not matches when filter does not.
func Not(filter *memorydv1.Filter) *memorydv1.Filter {
	return &memorydv1.Filter{Kind: &memorydv1.Filter_Not{Not: filter}}
}
