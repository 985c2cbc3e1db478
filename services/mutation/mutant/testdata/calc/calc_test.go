package calc

import (
	"fmt"
	"testing"
	"time"
)

func TestReport(t *testing.T) {
	fmt.Print("<<<REPORT\n" + Report() + "REPORT>>>\n")
}

func TestOriginal(t *testing.T) {
	if got := Clamp(11, 0, 10); got != 10 {
		t.Errorf("Clamp(11, 0, 10) = %d, want 10", got)
	}
	if got := Poly(2); got != 9 {
		t.Errorf("Poly(2) = %d, want 9", got)
	}
	if got := Deadline(time.Second, 2); got != 3*time.Second {
		t.Errorf("Deadline = %v, want 3s", got)
	}
	if got := Sum([]int{3, -2, 5, 101, 7}); got != 8 {
		t.Errorf("Sum = %d, want 8", got)
	}
	if got := base; got != 20 {
		t.Errorf("base = %d, want 20", got)
	}
}
