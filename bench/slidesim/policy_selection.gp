# Which degree a hybrid used at each failure (rate) and over all failures so
# far (accumulated), from a slidesim selection.csv (docs/policies.md;
# bench/slidesim/policy_figures.sh):
#   gnuplot -e "csv='DIR/selection.csv'; method='hybrid(2D+1D+0D)'; out='x.png'; ttl='…'" policy_selection.gp
# The rows of one degree are picked out with grep first: filtering with 1/0
# inside `using` leaves single points between undefined ones, and gnuplot
# draws no line through them.
set datafile separator ','
set terminal pngcairo size 900,750 noenhanced
set output out
degrees = "2D 1D 0D"
rows(d) = sprintf("< grep -F '%s,' '%s' | grep -F ',%s,'", method, csv, d)
set multiplot layout 2,1 title ttl
set lmargin 12
set rmargin 14
set key outside right top
set grid
set yrange [0:100]
set ylabel '% of the failures at this count'
plot for [i=1:3] rows(word(degrees, i)) using 2:4 with lines lw 2 lc i title word(degrees, i)
set ylabel '% of all failures so far'
set xlabel 'failed hosts'
plot for [i=1:3] rows(word(degrees, i)) using 2:5 with lines lw 2 lc i title word(degrees, i)
unset multiplot
